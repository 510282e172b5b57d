//go:build linux

package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// stackBound is the most goroutine stack a VU may keep after its first
// iteration: a reused connection's exchange fits in a 4 KiB stack, and
// dialling or a TLS handshake must not leave the VU's goroutine with the
// 8 KiB one they need for the rest of the run (the measure's noise, with
// the stacks the runtime caches, is under 1.5 KiB).
const stackBound = 6 << 10

// TestVUStackStaysSmall runs the first iteration (a dial, over https a
// handshake too, then a GET and a think time) of 200 VUs, each on its own
// goroutine as the closed model runs them, and pins the goroutine stack
// each keeps while it thinks. It measures in a child process of the test
// binary: beside the package's other tests, the goroutines they left
// (servers, idle connections) changed the process's stacks by 0.8 MB
// during the measure.
func TestVUStackStaysSmall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation takes stack of its own")
	}
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			if os.Getenv(stackChildEnv) == scheme {
				per := thinkingStack(t, benchServerOf(t, scheme)) // in another process: its goroutines' stacks are not the VUs'
				fmt.Printf("stack-per-vu=%d\n", per)
				return
			}
			per := stackInChild(t, scheme)
			t.Logf("%d bytes of stack per thinking VU", per)
			if per > stackBound {
				t.Errorf("a thinking VU keeps %d bytes of goroutine stack, want at most %d", per, stackBound)
			}
		})
	}
}

// stackChildEnv names the scheme a child process of the test binary measures.
const stackChildEnv = "LOADLENS_VUSTACK_CHILD"

// stackInChild runs the calling subtest again in a child process of the
// test binary, alone, and returns the stack per VU it printed.
func stackInChild(t *testing.T, scheme string) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), stackChildEnv+"="+scheme)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child measuring %s: %v\n%s", scheme, err, out)
	}
	m := regexp.MustCompile(`stack-per-vu=(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the child printed no stack-per-vu:\n%s", out)
	}
	per, err := strconv.ParseUint(string(m[1]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return per
}

// thinkingStack returns the goroutine stack per VU of 200 VUs that ran
// their first iteration against url and wait, as if thinking.
func thinkingStack(t *testing.T, url string) uint64 {
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(url))
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}, Insecure: true}, nullSink{}, Options{})
	e.start = time.Now()
	const n = 200
	runtime.GC() // stacks of the tests before, freed
	before := stackBytes()
	var done sync.WaitGroup
	think := make(chan struct{})
	ran := make(chan struct{})
	for range n { // one at a time: a dial's goroutine, gone, leaves its stack to the next
		done.Add(1)
		go func() {
			defer done.Done()
			v := e.scens[0].readyVU()
			defer v.close()
			if !v.iterate(context.Background(), time.Time{}) {
				t.Error("iteration failed")
			}
			ran <- struct{}{}
			<-think
		}()
		<-ran
	}
	after := stackBytes()
	close(think)
	done.Wait()
	return (after - before) / n
}

// stackBytes is the memory of every goroutine stack.
func stackBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
