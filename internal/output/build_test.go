package output

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestFrameTotalsMatchTheRun checks the cumulative counters a frame carries
// against the run model made from the same snapshots: equal, to the request.
func TestFrameTotalsMatchTheRun(t *testing.T) {
	fs, run := frames(3, 12)
	last := fs[len(fs)-1]
	for i, e := range last.Endpoints {
		want := &run.Endpoints[i]
		if e.Total.Requests != want.Requests {
			t.Errorf("endpoint %d: total requests %d, run %d", i, e.Total.Requests, want.Requests)
		}
		var byStatus int64
		for _, n := range e.Total.ByStatus {
			byStatus += n
		}
		if byStatus != want.Requests {
			t.Errorf("endpoint %d: requests by status add to %d, want %d", i, byStatus, want.Requests)
		}
		if e.Total.ByStatus[Status5xx] != want.Failures[sample.HTTP5xx] {
			t.Errorf("endpoint %d: 5xx %d, run %d", i, e.Total.ByStatus[Status5xx], want.Failures[sample.HTTP5xx])
		}
		if i == 0 && e.Total.ByStatus[Status5xx] == 0 {
			t.Errorf("endpoint 0 counts no 5xx; the synthetic traffic has one")
		}
		if e.Total.Failures != want.Failures {
			t.Errorf("endpoint %d: failures %v, run %v", i, e.Total.Failures, want.Failures)
		}
		if e.Total.Sent != want.Sent || e.Total.Received != want.Received {
			t.Errorf("endpoint %d: bytes %d/%d, run %d/%d", i, e.Total.Sent, e.Total.Received, want.Sent, want.Received)
		}
		n := e.Total.Duration
		var inBuckets uint64
		for _, b := range n.Buckets {
			inBuckets += b.Count
		}
		if n.Count != uint64(want.Requests) || inBuckets+n.ZeroCount != n.Count {
			t.Errorf("endpoint %d: native count %d (buckets %d + zero %d), want %d", i, n.Count, inBuckets, n.ZeroCount, want.Requests)
		}
		wantSum := want.Duration.Mean().Seconds() * float64(want.Requests)
		if math.Abs(n.Sum-wantSum) > 0.01*wantSum {
			t.Errorf("endpoint %d: native sum %.3f s, want %.3f s within 1%%", i, n.Sum, wantSum)
		}
	}
	var iters, dropped int64
	for _, f := range fs {
		iters += f.Scenarios[0].Iterations
		dropped += f.Scenarios[0].Dropped
	}
	if s := last.Scenarios[0]; s.TotalIterations != iters || s.TotalDropped != dropped || s.TotalDropped != 6 {
		t.Errorf("scenario totals %d iterations, %d dropped; frames add to %d and %d (want 6 dropped)", s.TotalIterations, s.TotalDropped, iters, dropped)
	}
	if !last.Time.Equal(testStart.Add(12 * time.Second)) {
		t.Errorf("last frame at %v, want the end of second 11", last.Time)
	}
}

// TestNativeIndex checks bucket boundaries: bucket i holds (2^((i-1)/8), 2^(i/8)].
func TestNativeIndex(t *testing.T) {
	tests := []struct {
		v    float64
		want int32
	}{
		{1, 0}, {1.0001, 1}, {2, 8}, {0.5, -8}, {0.25, -16}, {2 * nativeBounds[1], 1}, {2 * nativeBounds[1] * 1.001, 2}, {0.001, -79},
	}
	for _, tt := range tests {
		if got := nativeIndex(tt.v); got != tt.want {
			t.Errorf("nativeIndex(%v) = %d, want %d", tt.v, got, tt.want)
		}
	}
}
