package output

import (
	"testing"

	"github.com/klauspost/compress/snappy"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
)

// BenchmarkFrame is what the collector pays each second for outputs: one
// frame of 20 endpoints built from a snapshot (the sinks encode it in
// their own goroutines).
func BenchmarkFrame(b *testing.B) {
	layout := metricstest.Layout(20)
	var snap *metrics.Snapshot
	metricstest.Seconds(layout, 1, func(s *metrics.Snapshot) { snap = s })
	bl := newBuilder(layout, testStart)
	b.ReportAllocs()
	for b.Loop() {
		bl.frame(snap)
	}
}

// BenchmarkPromRWEncode is one second of 20 endpoints as a remote-write
// body, in a sink's goroutine.
func BenchmarkPromRWEncode(b *testing.B) {
	fs, _ := frames(20, 1)
	b.ReportAllocs()
	for b.Loop() {
		floats, hists := promSeries("r", fs)
		for _, ts := range [][]rwSeries{floats, hists} {
			snappy.Encode(nil, marshalWriteRequest(ts))
		}
	}
}

// BenchmarkInfluxEncode is one second of 20 endpoints as line protocol.
func BenchmarkInfluxEncode(b *testing.B) {
	fs, _ := frames(20, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := influxLines("r", fs); err != nil {
			b.Fatal(err)
		}
	}
}
