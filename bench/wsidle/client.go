package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/protocol/ws"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// usage is one reading of the in-process client's memory: what the
// sessions hold, and before that collection what was resident and why.
type usage struct {
	rss, heap, stacks, goroutines int64
	// As it stood before the collection: resident memory, heap objects
	// (live or garbage not yet collected), and free heap pages kept (freed
	// stacks and spans the scavenger has not returned).
	rss0, objects0, free0 int64
}

// readUsage reads memory as it stands, then after a collection that
// returned what it freed to the OS: what the sessions hold, without the
// collector's room or the handshakes' garbage.
func readUsage() usage {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	rss0, _ := proc.ResidentBytes()
	u := usage{rss0: int64(rss0), objects0: int64(m.HeapAlloc), free0: int64(m.HeapIdle - m.HeapReleased)}
	debug.FreeOSMemory()
	runtime.ReadMemStats(&m)
	rss, _ := proc.ResidentBytes()
	u.rss, u.heap, u.stacks, u.goroutines = int64(rss), int64(m.HeapInuse), int64(m.StackInuse), int64(runtime.NumGoroutine())
	return u
}

// print writes the difference between two readings, as inProcess reads it.
func (u usage) print(w io.Writer, before usage) {
	fmt.Fprintf(w, "%d %d %d %d %d %d %d\n", u.rss-before.rss, u.heap-before.heap, u.stacks-before.stacks, u.goroutines-before.goroutines,
		u.rss0-before.rss, u.objects0-before.objects0, u.free0-before.free0)
}

// runClient opens n idle sessions with internal/protocol/ws, one goroutine
// each as the engine runs a VU, and prints its memory before them and once
// the parent says (a line on stdin) that the server sees them all.
func runClient(n int, url string, w io.Writer) error {
	s := plan.Session{Protocol: "ws", URL: tmpl.Literal(strings.Replace(url, "ws://", "http://", 1)),
		Timeout: time.Hour, Duration: time.Hour, MaxMessage: plan.DefaultMaxMessage}
	st, err := ws.Protocol{}.Prepare(&s, env(time.Minute))
	if err != nil {
		return err
	}
	before := readUsage()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess := st.NewSession()
			defer sess.Close()
			sess.Run(ctx, &idleVU{start: time.Now()}, time.Now())
		}()
	}
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {
		cancel()
		return err
	}
	after := readUsage()
	if path := os.Getenv("WSIDLE_HEAPPROFILE"); path != "" { // where the heap goes: go tool pprof -top
		if f, err := os.Create(path); err == nil {
			_ = pprof.WriteHeapProfile(f)
			_ = f.Close()
		}
	}
	after.print(w, before)
	cancel()
	wg.Wait()
	return nil
}
