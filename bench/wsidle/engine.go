package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
)

// runEngine runs the idle test of n VUs in internal/engine, in-process,
// with the metrics recorder a run has, and prints its memory as runClient
// does: the engine's share of a session's memory, which `loadlens run`
// cannot report of itself.
func runEngine(n int, url string, w io.Writer) error {
	p, err := plan.Parse("idle.yaml", []byte(idleTest(n, url)), nil)
	if err != nil {
		return err
	}
	before := readUsage()
	e := engine.New(p, metrics.NewRecorder(p.Layout, runtime.GOMAXPROCS(0)), engine.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		cancel()
		return err
	}
	after := readUsage()
	if path := os.Getenv("WSIDLE_HEAPPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			_ = pprof.WriteHeapProfile(f)
			_ = f.Close()
		}
	}
	after.print(w, before)
	cancel()
	<-done
	return nil
}
