package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestActive checks the span an endpoint's rate divides by: from its first
// second with requests to the end of its last, the run's last partial
// second counting only as far as the run lasted.
func TestActive(t *testing.T) {
	tests := []struct {
		name     string
		requests []int64 // endpoint 0's requests per second, from second 0
		elapsed  time.Duration
		want     time.Duration
		first    int
		last     int
	}{
		{"busy throughout", []int64{5, 5, 5, 5}, 4 * time.Second, 4 * time.Second, 0, 3},
		{"one second of eight", []int64{0, 0, 100, 0, 0, 0, 0, 0}, 8 * time.Second, time.Second, 2, 2},
		{"a gap inside counts", []int64{0, 3, 0, 0, 3, 0}, 6 * time.Second, 4 * time.Second, 1, 4},
		{"the last second is partial", []int64{1, 1, 1}, 2300 * time.Millisecond, 2300 * time.Millisecond, 0, 2},
		{"idle in the partial last second", []int64{1, 1, 0}, 2300 * time.Millisecond, 2 * time.Second, 0, 1},
		{"a run shorter than a second", []int64{7}, 400 * time.Millisecond, 400 * time.Millisecond, 0, 0},
		{"a late record past the end keeps its whole second", []int64{1, 0, 1}, 1500 * time.Millisecond, 3 * time.Second, 0, 2},
		{"no requests", []int64{0, 0}, 2 * time.Second, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := NewRun(testLayout())
			for sec, n := range tt.requests {
				s := NewSnapshot(sec, run.Layout)
				s.Endpoints[0].Requests = n
				s.Endpoints[1].Requests = 1 // busy in every second: must not widen endpoint 0
				run.Add(s)
			}
			run.SetElapsed(tt.elapsed)
			e := &run.Endpoints[0]
			if got := run.Active(e); got != tt.want {
				t.Errorf("Active = %v, want %v", got, tt.want)
			}
			if e.Requests > 0 && (e.FirstSec != tt.first || e.LastSec != tt.last) {
				t.Errorf("seconds %d..%d, want %d..%d", e.FirstSec, e.LastSec, tt.first, tt.last)
			}
		})
	}
}

// TestActiveFromIntendedStart checks that an endpoint is active from when
// its requests were sent, though each is recorded in the second it ended:
// 4 requests of 1.5s sent at 0 in a run of 1.51s are 4 over 1.51s (2.65/s),
// not 4 over the 510ms of the second they ended in (7.8/s). A timeout and a
// request cut off by the end of the run (waiting since it was sent) count
// the same way.
func TestActiveFromIntendedStart(t *testing.T) {
	tests := []struct {
		name     string
		kind     sample.Kind
		end, dur time.Duration // of every request
		elapsed  time.Duration
		first    int
	}{
		{"slow, sent at the start", sample.OK, 1500 * time.Millisecond, 1500 * time.Millisecond, 1510 * time.Millisecond, 0},
		{"slow, sent in the second it ended", sample.OK, 1900 * time.Millisecond, 500 * time.Millisecond, 1950 * time.Millisecond, 1},
		{"timed out after 5s", sample.Timeout, 7200 * time.Millisecond, 5 * time.Second, 7300 * time.Millisecond, 2},
		{"cut off, sent from the start", sample.Interrupted, 7950 * time.Millisecond, 7950 * time.Millisecond, 7960 * time.Millisecond, 0},
		{"cut off, sent 2.5s before the end", sample.Interrupted, 7950 * time.Millisecond, 2500 * time.Millisecond, 7960 * time.Millisecond, 5},
		{"cut off, sent within the last second", sample.Interrupted, 7950 * time.Millisecond, 300 * time.Millisecond, 7960 * time.Millisecond, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := NewRecorder(testLayout(), 2)
			for vu := range 4 {
				// The VUs' requests are a little apart; the earliest sets the start.
				r := sample.Request{Endpoint: 0, End: tt.end, Duration: tt.dur - time.Duration(vu)*time.Millisecond, Kind: tt.kind}
				rec.Sink(vu).Request(&r)
			}
			run := NewRun(testLayout())
			last := int(tt.elapsed / time.Second)
			for sec := 0; sec <= last; sec++ {
				run.Add(roundTrip(t, rec.Collect(sec))) // through the codec, as run.db and agents carry it
			}
			run.SetElapsed(tt.elapsed)
			e := &run.Endpoints[0]
			if e.Requests != 4 || e.FirstSec != tt.first || e.LastSec != int(tt.end/time.Second) {
				t.Errorf("%d requests in seconds %d..%d, want 4 in %d..%d", e.Requests, e.FirstSec, e.LastSec, tt.first, tt.end/time.Second)
			}
			if want := tt.elapsed - time.Duration(tt.first)*time.Second; run.Active(e) != want {
				t.Errorf("Active = %v, want %v", run.Active(e), want)
			}
		})
	}
}

// TestActiveOfVersion2Snapshots checks that a run.db of an earlier build,
// whose snapshots did not keep when requests were sent, reads as it did:
// requests cut off by the end widen the span back by the longest of them.
func TestActiveOfVersion2Snapshots(t *testing.T) {
	tests := []struct {
		name    string
		longest time.Duration // of the interrupted requests, recorded in second 7
		first   int
	}{
		{"sent from the start", 7950 * time.Millisecond, 0},
		{"sent 2.5s before the end", 2500 * time.Millisecond, 4},
		{"sent within the last second", 300 * time.Millisecond, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := EndpointSecond{Requests: 60, Duration: NewHist()}
			e.Failures[sample.Interrupted] = 60
			e.Duration.Record(tt.longest)
			e.Duration.Record(tt.longest / 2)
			if got, want := firstSecond(&EndpointSecond{StartedBefore: startedBeforeV2(&e, 7)}, 7), tt.first; got != want {
				t.Errorf("first second %d, want %d", got, want)
			}
		})
	}
}

// TestTotalActive checks that the total of all endpoints spans the union
// of their active seconds.
func TestTotalActive(t *testing.T) {
	run := NewRun(testLayout())
	for sec := range 10 {
		s := NewSnapshot(sec, run.Layout)
		if sec >= 2 && sec <= 3 {
			s.Endpoints[0].Requests = 50
		}
		if sec >= 5 && sec <= 7 {
			s.Endpoints[2].Requests = 10
		}
		run.Add(s)
	}
	tot := run.Total()
	if tot.FirstSec != 2 || tot.LastSec != 7 {
		t.Errorf("total seconds %d..%d, want 2..7", tot.FirstSec, tot.LastSec)
	}
	if got := run.Active(&tot); got != 6*time.Second {
		t.Errorf("total Active = %v, want 6s", got)
	}
}
