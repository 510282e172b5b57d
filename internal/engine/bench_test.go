package engine

import (
	"context"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
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

// oneVU returns a VU of a one-GET scenario against url.
func oneVU(tb testing.TB, url string, opts Options) *vu {
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(url))
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, nullSink{}, opts)
	e.start = time.Now()
	v := e.scens[0].newVU()
	tb.Cleanup(v.close)
	return v
}

// BenchmarkRoundTrip is one VU iteration of one GET against a server that
// allocates nothing: the engine's per-request cost, allocations included,
// with the lean HTTP/1.1 client and with net/http.
func BenchmarkRoundTrip(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"h1", Options{}}, {"net-http", Options{NetHTTPOnly: true}}} {
		b.Run(c.name, func(b *testing.B) {
			v := oneVU(b, h1test.FixedServer(b), c.opts)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if !v.iterate(ctx, time.Now()) {
					b.Fatal("iteration failed")
				}
			}
		})
	}
}

func TestRequestPathDoesNotAllocate(t *testing.T) {
	v := oneVU(t, h1test.FixedServer(t), Options{})
	ctx := context.Background()
	v.iterate(ctx, time.Now()) // warm up: dial, buffers
	if n := testing.AllocsPerRun(200, func() { v.iterate(ctx, time.Now()) }); n != 0 {
		t.Fatalf("%v allocations per iteration of one GET, want 0", n)
	}
}
