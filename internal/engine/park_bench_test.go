package engine

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/testkit"
)

// BenchmarkThinkingIteration is a closed-model iteration of one GET, its
// reply from memory, then a think time of 1 ns: on the VU's goroutine
// (iterate sleeps on the VU's timer, as before parking) and parked (the
// goroutine ends and the timer starts a new one): what parking costs per
// iteration, a goroutine's start and its stack's growth included.
func BenchmarkThinkingIteration(b *testing.B) {
	for _, parked := range []bool{false, true} {
		b.Run(map[bool]string{false: "goroutine", true: "parked"}[parked], func(b *testing.B) {
			rec := &iterCounter{}
			s := scenario(plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: time.Hour, Target: 1}}},
				get("http://127.0.0.1:1/"), think(time.Nanosecond))
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{})
			e.start = time.Now()
			sc := e.scens[0]
			v := sc.newVU()
			defer v.close()
			mc := &memConn{reply: []byte(nginxReply)}
			v.h1 = &h1Trip{external: parked, client: h1.New(h1.Config{Inline: parked,
				Dial: func(context.Context, string, string) (net.Conn, error) { return mc, nil }})}
			ctx := context.Background()
			v.iterate(ctx, time.Time{}) // warm up: the timer, the buffers
			b.ReportAllocs()
			defer testkit.CPUMeter(b)()
			if !parked {
				for b.Loop() {
					v.iterate(ctx, time.Time{})
				}
				return
			}
			r := &closedRun{sc: sc, hard: ctx, parks: true, turns: newSendTurns(true)}
			defer r.turns.close()
			r.slots.target, r.slots.alive, r.slots.vus = 1, []bool{false}, []*closedVU{nil}
			r.slots.targetA.Store(1)
			rec.n.Store(0) // the warm-up counted one
			rec.stopAt, rec.stop = int64(b.N), func() { r.retarget(0, 0, false) }
			b.ResetTimer()
			sc.begin()
			r.wg.Add(1)
			r.slots.mu.Lock()
			r.startVU(v, 0, time.Time{})
			r.slots.mu.Unlock()
			r.wg.Wait()
			v.h1 = nil // closed with the VU: the deferred close must not close it again
		})
	}
}

// iterCounter is a recorder that counts iterations and calls stop at stopAt.
type iterCounter struct {
	nullSink
	n      atomic.Int64
	stopAt int64
	stop   func()
}

func (c *iterCounter) Sink(int) sample.Sink { return c }
func (c *iterCounter) Iteration(int32, time.Duration, time.Duration) {
	if c.n.Add(1) == c.stopAt {
		c.stop()
	}
}
