package diagnose

import (
	"testing"
	"time"
)

// queueGrew is trial A's global mutex: 30 s of 90 req/s on one endpoint,
// answered in 11 ms for fast seconds, then by a queue that grows every
// second by step.
func queueGrew(fast int, step time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(30, 90, 10, 11*time.Millisecond)
		for i := fast; i < len(secs); i++ {
			secs[i].reqs[0].dur = even(time.Duration(i-fast+1)*step, 0.2)
		}
		return Input{Run: build(t, layout(modelVUs, "POST /orders"), secs)}
	}
}

// mixedEverySecond is 30 s of 100 req/s, slowShare of each second's
// requests at 50 ms and the rest at 2 ms.
func mixedEverySecond(slowShare float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := make([]sec, 30)
		for i := range secs {
			secs[i] = sec{vus: 5, reqs: []reqs{{n: 100, dur: twoPeaks(2*time.Millisecond, 50*time.Millisecond, 1-slowShare)}}}
		}
		return Input{Run: build(t, layout(modelVUs, "GET /products/{id}"), secs)}
	}
}

// TestBimodalModesCoexistWithinSeconds checks that two modes that follow
// each other in time (before and after a queue grew) are no bimodal
// finding, and that two that mix in every second still are.
func TestBimodalModesCoexistWithinSeconds(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"a queue grown past saturation after 5 fast seconds (trial A: 0:00–0:05 at 11 ms)", queueGrew(5, 200*time.Millisecond), nil},
		{"a queue grown after 20 fast seconds (the fast mode the larger)", queueGrew(20, 200*time.Millisecond), nil},
		{"30% of requests at 50 ms, the rest at 2 ms, in every second", mixedEverySecond(0.3),
			&expect{Info, [2]int{0, 0}, [2]int{29, 29}, []string{"Bimodal latency on GET /products/{id}: 70% of requests at ~", "(cache hits and misses, or a fast and a slow path?)"}, nil}},
		{"70% of requests at 50 ms, the rest at 2 ms, in every second", mixedEverySecond(0.7),
			&expect{Info, [2]int{0, 0}, [2]int{29, 29}, []string{"% of requests at ~2.01ms, the rest at ~50.1ms"}, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), KindBimodalLatency, tc.want)
		})
	}
}
