package otlp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// memoryChild is set in the environment of the process
// TestReceiverMemoryIsBounded starts to run the receiver alone.
const memoryChild = "LOADLENS_OTLP_MEMORY_CHILD"

// peakHeapBound is what the receiver's heap may reach under the largest
// exports at once: the decode slots' bodies (2 × 16 MiB), the spans
// waiting to be known (an eighth of 128 MiB) and the garbage between two
// collections. Before the bounds, four 49 MiB exports took it past 3 GiB.
const peakHeapBound = 192 << 20

// TestReceiverMemoryIsBounded sends a receiver, in a process of its own,
// six exports at once of 16 MiB of the smallest spans (each of a trace
// that is not the run's), two of 59 MiB, and one of the run's own spans,
// and reads back the receiver's peak heap and what it kept.
func TestReceiverMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 100 MiB of exports")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReceiverMemoryChild$")
	cmd.Env = append(os.Environ(), memoryChild+"=1")
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	var url string
	for url == "" && lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "receiver at ")
	}
	if url == "" {
		t.Fatal("the receiver process said no address")
	}
	foreign := tinySpans(0, maxBody-64, 7)
	var wg sync.WaitGroup
	codes := make(chan int, 8)
	send := func(body io.Reader, length int64) {
		defer wg.Done()
		code, _ := post(t, url+Path, "application/x-protobuf", "", body, length)
		codes <- code
	}
	for range 6 {
		wg.Add(1)
		go send(bytes.NewReader(foreign), int64(len(foreign)))
	}
	wg.Add(2)
	go send(io.LimitReader(zeros{}, 59<<20), 59<<20)
	go send(io.LimitReader(zeros{}, 59<<20), -1) // chunked: read up to the bound
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	if got[200] != 6 || got[413] != 2 {
		t.Errorf("answers %v, want six 200 and two 413", got)
	}
	pb, _ := export().MarshalProto()
	if code, msg := post(t, url+Path, "application/x-protobuf", "", bytes.NewReader(pb), int64(len(pb))); code != 200 {
		t.Fatalf("the run's export: %d %s", code, msg)
	}
	stdin.Close()
	var peak, kept, foreignSpans, exports int
	for lines.Scan() {
		if _, err := fmt.Sscanf(lines.Text(), "peak heap %d kept %d foreign %d exports %d", &peak, &kept, &foreignSpans, &exports); err == nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the receiver process: %v", err)
	}
	t.Logf("peak heap %d MiB of the receiver's process", peak>>20)
	if peak == 0 || peak > peakHeapBound {
		t.Errorf("peak heap %d MiB, want at most %d MiB", peak>>20, peakHeapBound>>20)
	}
	n := 0
	if err := decodeProto(foreign, func(*spans.Span) { n++ }); err != nil || n < 300_000 {
		t.Fatalf("the export holds %d spans (%v)", n, err)
	}
	if kept != 4 || foreignSpans != 6*n || exports != 7 {
		t.Errorf("kept %d spans, %d foreign, %d exports; want the run's 4 spans kept and every other span counted foreign", kept, foreignSpans, exports)
	}
}

// TestReceiverMemoryChild is the receiver of TestReceiverMemoryIsBounded:
// it serves until its stdin closes, sampling its heap every millisecond,
// then prints its peak and what it kept.
func TestReceiverMemoryChild(t *testing.T) {
	if os.Getenv(memoryChild) == "" {
		t.Skip("the receiver process of TestReceiverMemoryIsBounded")
	}
	r, err := Listen("127.0.0.1:0", Options{Spans: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	own := sample.TraceID{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c} // export()'s
	r.Join(Join{Lookup: func(id sample.TraceID) (int32, bool) { return 0, id == own }, Endpoints: 1})
	runtime.GC()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(heap)
			peak = max(peak, heap[0].Value.Uint64())
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	fmt.Printf("receiver at %s\n", r.Endpoint())
	io.Copy(io.Discard, os.Stdin)
	close(stop)
	peak := <-done
	got, st := r.Spans()
	fmt.Printf("peak heap %d kept %d foreign %d exports %d\n", peak, len(got), st.Foreign, st.Exports)
}
