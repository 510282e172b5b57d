package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadlens/loadlens/internal/sample"
)

// benchLayout has 2 scenarios with 10 endpoints each.
func benchLayout() sample.Layout {
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a"}, {Name: "b"}}}
	for i := range 20 {
		l.Endpoints = append(l.Endpoints, sample.EndpointInfo{Scenario: int32(i / 10), Name: fmt.Sprint("GET /", i), Method: "GET"})
	}
	l.Checks = []sample.CheckInfo{{Name: "ok"}}
	return l
}

// latency returns a plausible request duration: log-normal around 40 ms.
func latency(rng *rand.Rand) time.Duration {
	return time.Duration(math.Exp(rng.NormFloat64()*0.6+math.Log(40e6))) * time.Nanosecond
}

func BenchmarkSinkRequest(b *testing.B) {
	shards := 4 * runtime.GOMAXPROCS(0)
	rec := NewRecorder(benchLayout(), shards)
	// Warm up: every shard meets every endpoint once, which allocates its
	// window's histograms; what follows is the steady state.
	for vu := range shards {
		for ep := range 20 {
			rec.Sink(vu).Request(&sample.Request{Endpoint: int32(ep), End: 1500 * time.Millisecond})
		}
	}
	var nextVU atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		vu := int(nextVU.Add(1))
		sink := rec.Sink(vu)
		rng := rand.New(rand.NewPCG(uint64(vu), 1))
		r := &sample.Request{End: 1500 * time.Millisecond, Sent: 120, Received: 4000, Status: 200}
		i := 0
		for pb.Next() {
			i++
			r.Endpoint = int32(i % 20)
			r.Duration = latency(rng)
			r.Waiting = r.Duration - time.Millisecond
			sink.Request(r)
		}
	})
}

func BenchmarkCollect(b *testing.B) {
	layout := benchLayout()
	shards := 4 * runtime.GOMAXPROCS(0)
	rec := NewRecorder(layout, shards)
	rng := rand.New(rand.NewPCG(1, 2))
	const perSecond = 5000
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		for j := range perSecond {
			r := sample.Request{Endpoint: int32(j % len(layout.Endpoints)), End: time.Duration(i)*time.Second + time.Millisecond,
				Duration: latency(rng), Waiting: time.Millisecond}
			sink := rec.Sink(j)
			sink.Request(&r)
			sink.Iteration(int32(j%2), r.End, r.Duration)
		}
		b.StartTimer()
		rec.Collect(i)
	}
	b.ReportMetric(float64(shards), "shards")
}

// perSecondDense returns a dense and a packed histogram holding the same
// second of one busy endpoint.
func perSecondHists(samples int) (*hdr.Histogram, *Hist) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := newDense()
	for range samples {
		_ = d.RecordValue(micros(latency(rng)))
	}
	h := NewHist()
	h.mergeDense(d)
	return d, h
}

// BenchmarkHistStorage compares dense and packed histograms for what the
// package keeps and encodes (snapshots, run totals), not for recording.
func BenchmarkHistStorage(b *testing.B) {
	for _, samples := range []int{100, 10000} {
		d, h := perSecondHists(samples)
		denseEnc, _ := d.Encode(hdr.V2CompressedEncodingCookieBase)
		packedEnc, _ := h.p.Encode()
		b.Run(fmt.Sprintf("memory/samples=%d", samples), func(b *testing.B) {
			for b.Loop() {
			}
			b.ReportMetric(float64(d.ByteSize()), "dense-B")
			b.ReportMetric(float64(h.p.GetMemorySize()), "packed-B")
			b.ReportMetric(float64(len(packedEnc)*3/4), "encoded-B")
		})
		b.Run(fmt.Sprintf("encode/dense/samples=%d", samples), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = d.Encode(hdr.V2CompressedEncodingCookieBase)
			}
		})
		b.Run(fmt.Sprintf("encode/packed/samples=%d", samples), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = h.p.Encode()
			}
		})
		b.Run(fmt.Sprintf("encode/this-codec/samples=%d", samples), func(b *testing.B) {
			var hc histCodec
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				buf, _ = hc.appendHist(buf[:0], h)
			}
		})
		raw, _ := new(histCodec).appendHist(nil, h)
		b.Run(fmt.Sprintf("decode/this-codec/samples=%d", samples), func(b *testing.B) {
			var hc histCodec
			b.ReportAllocs()
			for b.Loop() {
				_, _ = hc.decode(raw)
			}
		})
		b.Run(fmt.Sprintf("decode/dense/samples=%d", samples), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = hdr.Decode(denseEnc)
			}
		})
		b.Run(fmt.Sprintf("decode/packed/samples=%d", samples), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = hdr.DecodePacked(packedEnc)
			}
		})
		b.Run(fmt.Sprintf("merge-into-total/dense/samples=%d", samples), func(b *testing.B) {
			total := newDense()
			b.ReportAllocs()
			for b.Loop() {
				total.Merge(d)
			}
		})
		b.Run(fmt.Sprintf("merge-into-total/packed/samples=%d", samples), func(b *testing.B) {
			total := NewHist()
			b.ReportAllocs()
			for b.Loop() {
				total.Merge(h)
			}
		})
		b.Run(fmt.Sprintf("p99/dense/samples=%d", samples), func(b *testing.B) {
			for b.Loop() {
				_ = d.ValueAtPercentile(99)
			}
		})
		b.Run(fmt.Sprintf("p99/packed/samples=%d", samples), func(b *testing.B) {
			for b.Loop() {
				_ = h.Quantile(99)
			}
		})
	}
}

// busySnapshot returns a snapshot of a second in which every endpoint of
// benchLayout served 1000 requests.
func busySnapshot() *Snapshot {
	layout := benchLayout()
	rec := NewRecorder(layout, 4)
	rng := rand.New(rand.NewPCG(7, 8))
	for j := range 1000 * len(layout.Endpoints) {
		r := sample.Request{Endpoint: int32(j % len(layout.Endpoints)), Duration: latency(rng), Waiting: latency(rng)}
		sink := rec.Sink(j)
		sink.Request(&r)
		sink.Iteration(int32(j%2), 0, r.Duration)
		sink.Lag(int32(j%2), 0, time.Duration(j%100)*time.Microsecond)
	}
	return rec.Collect(0)
}

func BenchmarkSnapshotMarshal(b *testing.B) {
	s := busySnapshot()
	b.ReportAllocs()
	var n int
	for b.Loop() {
		data, err := s.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkSnapshotEncode is run.db's encoding of one second, as
// MarshalBinary does it (a new compressor each time) and with one Encoder
// reused from second to second, for a one-endpoint run and a 20-endpoint one.
func BenchmarkSnapshotEncode(b *testing.B) {
	for _, tc := range []struct {
		name string
		snap *Snapshot
	}{{"endpoints=1", oneEndpointSnapshot()}, {"endpoints=20", busySnapshot()}} {
		b.Run("marshal/"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.snap.MarshalBinary(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("encoder/"+tc.name, func(b *testing.B) {
			var enc Encoder
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if buf, err = enc.Append(buf[:0], tc.snap); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// oneEndpointSnapshot returns a second of a one-endpoint closed-model run
// at 100,000 requests/s, the peer benchmark's shape.
func oneEndpointSnapshot() *Snapshot {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /", Method: "GET"}}}
	rec := NewRecorder(layout, 2)
	rng := rand.New(rand.NewPCG(9, 10))
	for j := range 100000 {
		d := time.Duration(300+rng.IntN(400)) * time.Microsecond
		r := sample.Request{Duration: d, Waiting: d - 50*time.Microsecond}
		sink := rec.Sink(j)
		sink.Request(&r)
		sink.Iteration(0, 0, d)
	}
	return rec.Collect(0)
}

func BenchmarkSnapshotUnmarshal(b *testing.B) {
	data, err := busySnapshot().MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var s Snapshot
		if err := s.UnmarshalBinary(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRunAdd(b *testing.B) {
	s := busySnapshot()
	run := NewRun(benchLayout())
	b.ReportAllocs()
	for b.Loop() {
		run.Add(s)
	}
}

// BenchmarkRecordClosedRequest is the per-request bookkeeping of a closed-model
// VU against a fast target: one request and its iteration recorded, one VU
// per shard as the engine assigns them, and every 100,000 requests a second
// collected (so the per-second merge is amortised in). Latencies are
// precomputed: the RNG would cost more than what is measured. two-calls is
// Request then Iteration (two shard locks), as a flow whose last step is a
// think time records; one-call is RequestIteration, as the engine records a
// request that ends its iteration.
func BenchmarkRecordClosedRequest(b *testing.B) {
	for _, one := range []bool{false, true} {
		name := "two-calls"
		if one {
			name = "one-call"
		}
		b.Run(name, func(b *testing.B) { benchRecordClosed(b, one) })
	}
}

func benchRecordClosed(b *testing.B, one bool) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /", Method: "GET"}}}
	rec := NewRecorder(layout, 2)
	rng := rand.New(rand.NewPCG(5, 6))
	lat := make([]time.Duration, 4096)
	for i := range lat {
		lat[i] = time.Duration(150+rng.IntN(700)) * time.Microsecond
	}
	const perSecond = 100000
	sinks := []sample.LastRequestSink{rec.Sink(0).(sample.LastRequestSink), rec.Sink(1).(sample.LastRequestSink)}
	r := &sample.Request{Status: 200, Sent: 40, Received: 200}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sec := i / perSecond
		d := lat[i&(len(lat)-1)]
		r.End = time.Duration(sec)*time.Second + time.Duration(i%perSecond)*(time.Second/perSecond)
		r.Duration, r.Waiting = d, d-20*time.Microsecond
		sink := sinks[i&1]
		if one {
			sink.RequestIteration(r, 0, d)
		} else {
			sink.Request(r)
			sink.Iteration(0, r.End, d)
		}
		if (i+1)%perSecond == 0 {
			rec.Collect(sec)
		}
	}
}
