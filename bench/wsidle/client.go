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

// usage is one reading of the in-process client's memory.
type usage struct {
	rss, heap, stacks, goroutines int64
}

// readUsage reads memory after a collection that returned what it freed
// to the OS: what the sessions hold, without the collector's room or the
// handshakes' garbage.
func readUsage() usage {
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	rss, _ := proc.ResidentBytes()
	return usage{rss: int64(rss), heap: int64(m.HeapInuse), stacks: int64(m.StackInuse), goroutines: int64(runtime.NumGoroutine())}
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
	fmt.Fprintf(w, "%d %d %d %d\n", after.rss-before.rss, after.heap-before.heap, after.stacks-before.stacks, after.goroutines-before.goroutines)
	cancel()
	wg.Wait()
	return nil
}
