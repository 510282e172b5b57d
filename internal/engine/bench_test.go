package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// nullSink drops everything: the benchmark measures the request path only.
type nullSink struct{}

func (nullSink) Sink(int) sample.Sink                          { return nullSink{} }
func (nullSink) Request(*sample.Request)                       {}
func (nullSink) Check(int32, time.Duration, bool)              {}
func (nullSink) Iteration(int32, time.Duration, time.Duration) {}
func (nullSink) Dropped(int32, time.Duration)                  {}
func (nullSink) Lag(int32, time.Duration, time.Duration)       {}

// BenchmarkRoundTrip is one VU iteration of one GET against an in-process
// server: the engine's per-request cost, allocations included.
func BenchmarkRoundTrip(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(srv.URL))
	p := &plan.Plan{Scenarios: []*plan.Scenario{s}}
	e := New(p, nullSink{}, Options{Start: time.Now()})
	e.start = time.Now()
	v := e.scens[0].newVU()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if !v.iterate(ctx, time.Now()) {
			b.Fatal("iteration failed")
		}
	}
}
