//go:build linux

package engine

import (
	"context"
	"runtime"
	"runtime/metrics"
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
// each keeps while it thinks.
func TestVUStackStaysSmall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation takes stack of its own")
	}
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			per := thinkingStack(t, benchServerOf(t, scheme)) // in another process: its goroutines' stacks are not the VUs'
			t.Logf("%d bytes of stack per thinking VU", per)
			if per > stackBound {
				t.Errorf("a thinking VU keeps %d bytes of goroutine stack, want at most %d", per, stackBound)
			}
		})
	}
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
