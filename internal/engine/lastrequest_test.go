package engine

import (
	"context"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// pairSink records what reaches it, taking a request with its iteration.
type pairSink struct {
	nullSink
	requests, iterations, pairs int
	pairD, reqD                 time.Duration // the last pair's iteration and request durations
}

func (p *pairSink) Sink(int) sample.Sink                          { return p }
func (p *pairSink) Request(*sample.Request)                       { p.requests++ }
func (p *pairSink) Iteration(int32, time.Duration, time.Duration) { p.iterations++ }
func (p *pairSink) RequestIteration(r *sample.Request, _ int32, d time.Duration) {
	p.pairs++
	p.pairD, p.reqD = d, r.Duration
}

// TestRequestEndingIterationIsRecordedWithIt: an iteration whose last step
// is a request is recorded with that request in one call, its duration
// from the iteration's start to the response; one ending in a think time,
// or recorded by a sink that takes one thing at a time, is recorded apart.
func TestRequestEndingIterationIsRecordedWithIt(t *testing.T) {
	url := h1test.FixedServer(t)
	think := plan.Step{Kind: plan.ThinkStep, ThinkMin: time.Millisecond, ThinkMax: time.Millisecond}
	for _, tt := range []struct {
		name                       string
		flow                       []plan.Step
		intended                   time.Duration // before now; 0: the closed model's "now"
		same                       bool          // the iteration is its one request
		wantPairs, wantReq, wantIt int
	}{
		{"one request, closed", []plan.Step{get(url)}, 0, true, 3, 0, 0},
		{"one request, late start", []plan.Step{get(url)}, 50 * time.Millisecond, true, 3, 0, 0},
		{"think, then a request", []plan.Step{think, get(url)}, 0, false, 3, 0, 0},
		{"a request, then think", []plan.Step{get(url), think}, 0, false, 0, 3, 3},
		{"two requests", []plan.Step{get(url), get(url)}, 0, false, 3, 3, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ps := &pairSink{}
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, tt.flow...)
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, ps, Options{})
			e.start = time.Now()
			v := e.scens[0].newVU()
			defer v.close()
			for range 3 {
				var intended time.Time
				if tt.intended > 0 {
					intended = time.Now().Add(-tt.intended)
				}
				if !v.iterate(context.Background(), intended) {
					t.Fatal("iteration failed")
				}
				if tt.same && ps.pairD != ps.reqD {
					t.Errorf("iteration %v, its only request %v: they start and end together", ps.pairD, ps.reqD)
				}
				if tt.wantPairs > 0 && !tt.same && ps.pairD <= ps.reqD {
					t.Errorf("iteration %v not longer than its last request %v", ps.pairD, ps.reqD)
				}
				if tt.intended > 0 && ps.pairD < tt.intended {
					t.Errorf("iteration %v not timed from its intended start %v ago", ps.pairD, tt.intended)
				}
			}
			if ps.pairs != tt.wantPairs || ps.requests != tt.wantReq || ps.iterations != tt.wantIt {
				t.Errorf("pairs %d, requests %d, iterations %d; want %d, %d, %d",
					ps.pairs, ps.requests, ps.iterations, tt.wantPairs, tt.wantReq, tt.wantIt)
			}
		})
	}
}
