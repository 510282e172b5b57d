package engine

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// stallServer answers its first n requests at once, then holds every
// request for stall from when the first held one came, then answers at
// once again: a target that stalls, then drains its queue in a burst.
func stallServer(t *testing.T, n int64, stall time.Duration) *httptest.Server {
	var hits atomic.Int64
	var once sync.Once
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) > n {
			once.Do(func() { time.AfterFunc(stall, func() { close(release) }) }) // the fault under test, not synchronisation
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOfferedIsTheSchedule checks that each second's offered arrivals are
// what the schedule asked for, by their intended start, against a target
// that stalls for half a second then drains: 20/s offers 20 in every second,
// though the target completes none in one and a burst in the next, and
// whether the arrivals started or were dropped for lack of a VU. A
// scenario starting half-way into a second offers half its rate there.
func TestOfferedIsTheSchedule(t *testing.T) {
	tests := []struct {
		name   string
		rate   float64
		start  time.Duration
		maxVUs int
		want   []int64 // offered per second of the run
	}{
		{"VUs for the stall", 20, 0, 100, []int64{20, 20}},
		{"too few VUs: the stall drops arrivals", 20, 0, 5, []int64{20, 20}},
		{"starting at 0.5 s", 20, 500 * time.Millisecond, 100, []int64{10, 20, 10}},
		// With its one VU held, the scheduler drops what came due by arithmetic, across seconds.
		{"one VU at 1,000/s: drops counted in bulk", 1000, 0, 1, []int64{1000, 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := stallServer(t, 20, 500*time.Millisecond)
			load := plan.Load{Model: plan.ArrivalRate, StartRate: tt.rate, Stages: []plan.Stage{{Duration: 2 * time.Second, Target: tt.rate}},
				PreAllocatedVUs: min(tt.maxVUs, 5), MaxVUs: tt.maxVUs}
			s := scenario(load, get(srv.URL))
			s.StartTime = tt.start
			rec, err := run(t, plan.Whole, s)
			if err != nil {
				t.Fatal(err)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			var total int64
			for sec, want := range tt.want {
				if got := rec.offered[sec]; got != want {
					t.Errorf("second %d offered %d, want %d (all: %v)", sec, got, want, rec.offered)
				}
				total += rec.offered[sec]
			}
			if len(rec.offered) != len(tt.want) {
				t.Errorf("offered in %d seconds, want %d: %v", len(rec.offered), len(tt.want), rec.offered)
			}
			// Every arrival offered either started (and recorded its lag) or was dropped.
			if started := int64(rec.lags); started+int64(rec.dropped) != total {
				t.Errorf("%d started + %d dropped, the schedule offered %d", started, rec.dropped, total)
			}
			if tt.maxVUs < int(tt.rate) && rec.dropped == 0 {
				t.Error("the stall dropped nothing: the test cannot tell drops are offered")
			}
		})
	}
}

// TestMissCountsEachSecond checks the drops a scheduler far behind counts
// by arithmetic: from the arrival due at 0 to those due by 3.5 s at
// 1,000/s, offered and dropped in the seconds of their intended starts,
// on the run's clock when the scenario started a quarter second in.
func TestMissCountsEachSecond(t *testing.T) {
	tests := []struct {
		name string
		base time.Duration
		want map[int]int64
	}{
		{"from the run's start", 0, map[int]int64{0: 1000, 1: 1000, 2: 1000, 3: 500}},
		{"from 0.25 s", 250 * time.Millisecond, map[int]int64{0: 750, 1: 1000, 2: 1000, 3: 750}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newTestRecorder()
			sc := &scenarioRun{s: &plan.Scenario{ID: 0}}
			load := plan.Load{Model: plan.ArrivalRate, StartRate: 1000, Stages: []plan.Stage{{Duration: 10 * time.Second, Target: 1000}}}
			arrivals := plan.NewArrivals(&load, plan.Whole)
			o := newOffers(rec, 0, tt.base)
			off, _ := arrivals.Next()
			o.due(off)
			n := sc.miss(rec, o, arrivals, off, 3500*time.Millisecond)
			o.flush()
			if n != 3500 || rec.dropped != 3500 {
				t.Errorf("dropped %d (recorded %d), want 3500", n, rec.dropped)
			}
			if fmt.Sprint(rec.offered) != fmt.Sprint(tt.want) {
				t.Errorf("offered %v, want %v", rec.offered, tt.want)
			}
			if next, _ := arrivals.Next(); next != 3500*time.Millisecond {
				t.Errorf("the schedule goes on at %v, want 3.5s", next)
			}
		})
	}
}

// TestOfferedByScheduleArithmetic checks Engine.Offered, the collector's
// count of each second's arrivals: the schedule's whatever the scheduler
// reached, half a second's worth in a second the scenario started or was
// stopped half-way into, none after the stop, and a segment's share.
func TestOfferedByScheduleArithmetic(t *testing.T) {
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 100, Stages: []plan.Stage{{Duration: 3 * time.Second, Target: 100}}}
	half, err := plan.ParseSegment("0:1/2")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		start time.Duration
		stop  time.Duration // 0: not stopped
		seg   plan.Segment
		want  []int64 // seconds 0–4
	}{
		{"the whole schedule", 0, 0, plan.Whole, []int64{100, 100, 100, 0, 0}},
		{"starting at 0.5 s", 500 * time.Millisecond, 0, plan.Whole, []int64{50, 100, 100, 50, 0}},
		{"stopped at 1.5 s", 0, 1500 * time.Millisecond, plan.Whole, []int64{100, 50, 0, 0, 0}},
		{"half the arrivals on this agent", 0, 0, half, []int64{50, 50, 50, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Engine{opts: Options{Segment: tt.seg}}
			s := &plan.Scenario{Load: load, StartTime: tt.start}
			sc := &scenarioRun{e: e, s: s}
			e.scens = []*scenarioRun{sc}
			if tt.stop > 0 {
				sc.schedStop.Store(int64(tt.stop) + 1)
			}
			var got []int64
			for sec := range tt.want {
				got = append(got, e.Offered(sec, nil)[0])
			}
			for sec, want := range tt.want {
				if got[sec] != want {
					t.Errorf("second %d offered %d, want %d (all: %v)", sec, got[sec], want, got)
				}
			}
		})
	}
}
