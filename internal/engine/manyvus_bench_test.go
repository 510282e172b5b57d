//go:build linux

package engine

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// BenchmarkManyVUs runs a closed-model scenario of many VUs (one GET, then
// a think time) against a server in another process, and reports what the
// generator's heap does while the VUs start (GC cycles, preparing's forced
// one included, and bytes allocated per VU) and in the steady state after
// (allocations and bytes per iteration, GC cycles per 10,000 iterations,
// and the heap and goroutine stacks live per VU, the read buffers pooled
// since the start included), and where the resident memory the VUs added
// is (manyvus_mem_test.go: RSS, heap objects live or not yet collected,
// stacks, ... per VU, before the benchmark's own collection). These
// do not move with a busy host, unlike latency (see docs/generator.md):
//
//	go test -run '^$' -bench ManyVUs -benchtime 1x ./internal/engine/
func BenchmarkManyVUs(b *testing.B) {
	for _, c := range []struct {
		name  string
		vus   int
		think time.Duration
	}{{"vus=1000", 1000, 100 * time.Millisecond}, {"vus=10000", 10000, time.Second}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				manyVUs(b, benchServer(b), c.vus, c.think)
			}
		})
	}
}

// manyVUs runs vus VUs for 2 think times to start and connect them all,
// measures the 3 think times after, and reports the figures.
func manyVUs(b *testing.B, url string, vus int, z time.Duration) {
	warm, steady := 2*z+500*time.Millisecond, 3*z
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: vus,
		Stages: []plan.Stage{{Duration: warm + steady + z, Target: float64(vus)}}}, get(url), think(z))
	s.GracefulStop = 2 * z
	rec := newTestRecorder()
	rec.tally = &tally{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	c0 := readMemClasses(b)
	done := make(chan error, 1)
	go func() { done <- New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{}).Run(ctx) }()
	var m0, m1 runtime.MemStats
	time.Sleep(warm) // the benchmark's schedule, not a synchronisation: the run is under way either way
	n0 := rec.count()
	runtime.ReadMemStats(&m0)
	time.Sleep(steady)
	n1 := rec.count()
	runtime.ReadMemStats(&m1)
	c1 := readMemClasses(b)
	runtime.GC()
	live := liveMemory()
	if path := os.Getenv("LOADLENS_BENCH_HEAP"); path != "" { // what is live per VU: go tool pprof -sample_index=inuse_space
		writeHeap(b, path)
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	iters := float64(n1 - n0)
	if iters == 0 || rec.tally.byKind[0] == 0 {
		b.Fatalf("%v iterations in the steady state; kinds %v", iters, rec.kindNames())
	}
	b.ReportMetric(float64(m0.NumGC-ms.NumGC), "GC-start") // preparing's own included
	b.ReportMetric(float64(m0.TotalAlloc-ms.TotalAlloc)/float64(vus), "start-B/VU")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/iters, "allocs/iter")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/iters, "B/iter")
	b.ReportMetric(float64(m1.NumGC-m0.NumGC)*10000/iters, "GC/10k-iter")
	b.ReportMetric(float64(live)/float64(vus), "live-B/VU")
	reportPerVU(b, c0, c1, vus)
	b.ReportMetric(iters/steady.Seconds(), "iter/s")
	b.ReportMetric(0, "ns/op") // the schedule's length, not a cost
}

// writeHeap writes a heap profile to path.
func writeHeap(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}
