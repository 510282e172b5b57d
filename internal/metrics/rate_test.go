package metrics

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestRateNeedsASecond checks that an endpoint's rate is made over at
// least a second: six requests whose URL could not be sent ended within
// 189 µs, and showed 31,669/s (a trial); a burst under a second is rated
// over one, a longer span over itself, as before; one request has none.
func TestRateNeedsASecond(t *testing.T) {
	tests := []struct {
		name string
		n    int
		gap  time.Duration // between intended starts (closed model: back to back)
		dur  time.Duration // of every request
		want float64       // requests/s; 0: none
	}{
		{"six in 189 µs: 6/s", 6, 30 * time.Microsecond, 9 * time.Microsecond, 6},
		{"ten in 900 ms: 10/s", 10, 100 * time.Millisecond, 0, 10},
		{"one: no rate", 1, 0, 5 * time.Millisecond, 0},
		{"ten 100 ms apart for 1 s: 10/s", 10, 100 * time.Millisecond, 100 * time.Millisecond, 10},
		{"200 back to back for 2 s: 100/s", 200, 10 * time.Millisecond, 10 * time.Millisecond, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := NewRecorder(spansLayout(), 1)
			var last time.Duration
			for i := range tt.n {
				start := time.Duration(i) * tt.gap
				r := sample.Request{Endpoint: 2, End: start + tt.dur, Duration: tt.dur}
				rec.Sink(0).Request(&r)
				last = r.End
			}
			run := NewRun(spansLayout())
			for sec := 0; sec <= int(last/time.Second); sec++ {
				run.Add(roundTrip(t, rec.Collect(sec)))
			}
			run.SetElapsed(last + time.Millisecond)
			e := &run.Endpoints[2]
			got := run.Rate(e)
			if math.Abs(got-tt.want) > 1e-9*max(tt.want, 1) {
				t.Errorf("Rate = %v/s over %v, want %v/s", got, run.Active(e), tt.want)
			}
		})
	}
}
