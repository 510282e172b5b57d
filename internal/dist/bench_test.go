package dist

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
)

// BenchmarkMergePerAgentSecond measures what the coordinator spends on one
// agent's second: decoding its snapshot (20 endpoints, 50 requests a
// second each), keeping its figures and merging it into the second, and
// adding the merged second to the whole run. One op is one agent-second;
// the target is under 10 ms (1% of a core per agent).
func BenchmarkMergePerAgentSecond(b *testing.B) {
	for _, agents := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("agents=%d", agents), func(b *testing.B) {
			layout := metricstest.Layout(20)
			var frames [][]byte
			metricstest.Seconds(layout, 10, func(s *metrics.Snapshot) {
				raw, err := s.MarshalBinary()
				if err != nil {
					b.Fatal(err)
				}
				frames = append(frames, raw)
			})
			g := fakeGenerator(layout, make([]int, agents)...) // every second is due: Second never waits
			run := metrics.NewRun(layout)
			b.ReportAllocs()
			b.ResetTimer()
			sec := 0
			for i := 0; i < b.N; i += agents {
				for _, a := range g.agents {
					var s metrics.Snapshot
					if err := s.UnmarshalBinary(frames[sec%len(frames)]); err != nil {
						b.Fatal(err)
					}
					s.Second = sec
					g.update(func() { a.receive(sec, 0.1, &s) })
				}
				run.Add(g.Second(sec))
				sec++
			}
		})
	}
}

// BenchmarkCoordinatorMemory is the coordinator's memory over a long run of
// many agents: one op is one second of 100 agents × 20 endpoints, merged
// and added to the whole run. Run it for an hour of seconds with
// -benchtime 3600x; it reports the heap live after collection (MiB) at
// the end. The agents' snapshots are decoded once and reused, since only
// what the coordinator keeps is measured here (decoding is in
// BenchmarkMergePerAgentSecond).
func BenchmarkCoordinatorMemory(b *testing.B) {
	const agents = 100
	layout := metricstest.Layout(20)
	var snaps []*metrics.Snapshot
	metricstest.Seconds(layout, 10, func(s *metrics.Snapshot) { snaps = append(snaps, s) })
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g := fakeGenerator(layout, make([]int, agents)...)
	g.start = time.Now().Add(-1000 * time.Hour) // every second of the hour is due: Second never waits
	run := metrics.NewRun(layout)
	b.ReportAllocs()
	b.ResetTimer()
	for sec := 0; sec < b.N; sec++ {
		for _, a := range g.agents {
			g.update(func() { a.receive(sec, 0.1, snaps[sec%len(snaps)]) })
		}
		run.Add(g.Second(sec))
	}
	b.StopTimer()
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))/(1<<20), "MiB-kept")
	runtime.KeepAlive(run)
	runtime.KeepAlive(g)
}
