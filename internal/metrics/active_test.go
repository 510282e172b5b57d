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

// TestActiveWithInterrupted checks that requests cut off by the end of the
// run, all recorded in its last second, make the endpoint active from when
// they were sent: 60 requests to a dead target over 3s and a graceful stop
// to 7.96s are not 60 in under a second.
func TestActiveWithInterrupted(t *testing.T) {
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
			run := NewRun(testLayout())
			for sec := range 8 {
				s := NewSnapshot(sec, run.Layout)
				if sec == 7 {
					e := &s.Endpoints[0]
					e.Requests, e.Failures[sample.Interrupted] = 60, 60
					e.Duration = NewHist()
					e.Duration.Record(tt.longest)
					e.Duration.Record(tt.longest / 2)
				}
				run.Add(s)
			}
			run.SetElapsed(7960 * time.Millisecond)
			e := &run.Endpoints[0]
			if e.FirstSec != tt.first || e.LastSec != 7 {
				t.Errorf("seconds %d..%d, want %d..7", e.FirstSec, e.LastSec, tt.first)
			}
			if want := 7960*time.Millisecond - time.Duration(tt.first)*time.Second; run.Active(e) != want {
				t.Errorf("Active = %v, want %v", run.Active(e), want)
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
