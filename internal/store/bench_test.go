package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// busySecond returns a second in which each of n endpoints served 5,000
// requests of a few hundred µs, as a closed-model run against a fast target.
func busySecond(n int) (sample.Layout, *metrics.Snapshot) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "vus"}}}
	for i := range n {
		layout.Endpoints = append(layout.Endpoints, sample.EndpointInfo{Name: fmt.Sprint("GET /", i), Method: "GET"})
	}
	rec := metrics.NewRecorder(layout, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	for j := range 5000 * n {
		d := time.Duration(200+rng.IntN(600)) * time.Microsecond
		sink := rec.Sink(j)
		sink.Request(&sample.Request{Endpoint: int32(j % n), Duration: d, Waiting: d / 2, Status: 200})
		sink.Iteration(0, 0, d)
	}
	return layout, rec.Collect(0)
}

// BenchmarkWriteSecond is run.db's cost of one second of a run: encoding
// the snapshot and the transaction that stores it (WAL, synchronous=NORMAL).
func BenchmarkWriteSecond(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("endpoints=%d", n), func(b *testing.B) {
			layout, snap := busySecond(n)
			m := testMeta()
			m.Layout = layout
			w, err := Create(filepath.Join(b.TempDir(), "run.db"), m)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = w.Close() }()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				snap.Second = i
				if err := w.WriteSecond(snap); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
