package metrics

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestActive checks the span an endpoint's rate divides by in a run.db of
// an earlier build, which kept no intended starts: from its first second
// with requests to the end of its last, the run's last partial second
// counting only as far as the run lasted.
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

// spansLayout is an arrival-rate scenario of one endpoint beside another,
// and a closed one.
func spansLayout() sample.Layout {
	return sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "arrival-rate"}, {Name: "b", Model: "arrival-rate"}, {Name: "c", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /a"}, {Scenario: 1, Name: "GET /b"}, {Scenario: 2, Name: "GET /c"}},
	}
}

// TestActiveIsTheSpanSent checks the span an endpoint's rate divides by,
// from its first request's intended start until it was done: when its last
// one ended (a slow answer, a timeout, one cut off by the run's end), or in
// the open model when its next was due if that is later. 1,000 requests
// 10 ms apart answered in 5 ms are 100/s over 10 s, not 90.9/s over the
// 11 s to the end of the second the last one ended in; 5,000 offered at
// 200/s to a target that serves 184/s read 184/s, not the 200/s offered
// (trial A's proxy run: its last 1,138 drained over 6 s).
func TestActiveIsTheSpanSent(t *testing.T) {
	tests := []struct {
		name    string
		ep      int32 // 0: arrival-rate, 2: vus
		n       int
		gap     time.Duration // between intended starts, from first
		first   time.Duration
		dur     time.Duration // of every request
		kind    sample.Kind
		elapsed time.Duration
		want    time.Duration
		serve   time.Duration // a FIFO target's time per request, from the first start; 0: dur each
	}{
		{"100/s for 10 s in a 13 s run", 0, 1000, 10 * time.Millisecond, 0, 5 * time.Millisecond, sample.OK, 13 * time.Second, 10 * time.Second, 0},
		{"slow, 4/s, ending in later seconds: it kept up, at its own pace", 0, 4, 250 * time.Millisecond, 0, 1500 * time.Millisecond, sample.OK, 1760 * time.Millisecond, time.Second, 0},
		{"timed out after 5 s, 2/s from 2 s: each as long, none queued", 0, 6, 500 * time.Millisecond, 2 * time.Second, 5 * time.Second, sample.Timeout, 10 * time.Second, 3 * time.Second, 0},
		{"cut off by the end, 10/s from 5 s: the span sent", 0, 25, 100 * time.Millisecond, 5 * time.Second, 0, sample.Interrupted, 7960 * time.Millisecond, 2500 * time.Millisecond, 0},
		{"200/s offered to a target of 184/s: its rate", 0, 5000, 5 * time.Millisecond, 0, 0, sample.OK, 28 * time.Second, 4999 * 5434783 * time.Nanosecond, 5434783 * time.Nanosecond},
		{"50 ms answers at 100/s: kept up, the span sent", 0, 1000, 10 * time.Millisecond, 0, 50 * time.Millisecond, sample.OK, 11 * time.Second, 10 * time.Second, 0},
		{"one request: no rate", 0, 1, 0, time.Second, 10 * time.Millisecond, sample.OK, 2 * time.Second, 0, 0},
		{"all sent at the same instant: no rate", 0, 8, 0, 0, 30 * time.Millisecond, sample.OK, time.Second, 0, 0},
		// A VU sends its next request when its last one returned.
		{"closed: 4 VUs, each one request of 1.5 s", 2, 4, time.Millisecond, 0, 1500 * time.Millisecond, sample.OK, 1510 * time.Millisecond, 1503 * time.Millisecond, 0},
		{"closed: one VU, 10 ms requests back to back for 2 s", 2, 200, 10 * time.Millisecond, 0, 10 * time.Millisecond, sample.OK, 2100 * time.Millisecond, 2 * time.Second, 0},
		{"closed: one request: no rate", 2, 1, 0, 0, 10 * time.Millisecond, sample.OK, time.Second, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := NewRecorder(spansLayout(), 2)
			for i := range tt.n {
				start := tt.first + time.Duration(i)*tt.gap
				end := min(start+tt.dur, tt.elapsed-time.Millisecond)
				if tt.serve > 0 {
					end = tt.first + time.Duration(i+1)*tt.serve
				}
				if tt.kind == sample.Interrupted {
					end = tt.elapsed - time.Millisecond
				}
				r := sample.Request{Endpoint: tt.ep, End: end, Duration: end - start, Kind: tt.kind}
				rec.Sink(i).Request(&r)
			}
			run := NewRun(spansLayout())
			for sec := 0; sec <= int(tt.elapsed/time.Second); sec++ {
				run.Add(roundTrip(t, rec.Collect(sec))) // through the codec, as run.db and agents carry it
			}
			run.SetElapsed(tt.elapsed)
			e := &run.Endpoints[tt.ep]
			if e.Requests != int64(tt.n) || !e.Sends.Kept {
				t.Fatalf("%d requests (sends kept: %v), want %d", e.Requests, e.Sends.Kept, tt.n)
			}
			if got := run.Active(e); (got - tt.want).Abs() > time.Millisecond/100 { // the fastest answer is read from a histogram, to its precision
				t.Errorf("Active = %v, want %v", got, tt.want)
			}
			if tt.want == time.Duration(tt.n)*tt.gap && tt.ep == 0 { // it kept up: the rate offered
				rate, want := float64(e.Requests)/run.Active(e).Seconds(), float64(time.Second)/float64(tt.gap)
				if math.Abs(rate-want) > 1e-9*want {
					t.Errorf("rate %v/s, want %v/s", rate, want)
				}
			}
		})
	}
}

// TestTotalActiveIsTheSpanSent checks the total of endpoints sent to over
// different spans: 100/s for 10 s and 10/s from 3 s to 13 s are 1,100
// requests from 0 until 13 s, when the next of the second was due.
func TestTotalActiveIsTheSpanSent(t *testing.T) {
	rec := NewRecorder(spansLayout(), 1)
	send := func(ep int32, n int, first, gap time.Duration) {
		for i := range n {
			start := first + time.Duration(i)*gap
			r := sample.Request{Endpoint: ep, End: start + 2*time.Millisecond, Duration: 2 * time.Millisecond}
			rec.Sink(0).Request(&r)
		}
	}
	send(0, 1000, 0, 10*time.Millisecond)
	send(1, 100, 3*time.Second, 100*time.Millisecond)
	run := NewRun(spansLayout())
	for sec := range 14 {
		run.Add(rec.Collect(sec))
	}
	run.SetElapsed(13 * time.Second)
	for ep, want := range []time.Duration{10 * time.Second, 10 * time.Second} {
		if got := run.Active(&run.Endpoints[ep]); got != want {
			t.Errorf("endpoint %d active %v, want %v", ep, got, want)
		}
	}
	tot := run.Total()
	if got := run.Active(&tot); got != 13*time.Second {
		t.Errorf("total active %v, want 13s", got)
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
			e := EndpointSecond{Figures: Figures{Requests: 60, Duration: NewHist()}}
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
// of their active seconds, in a run.db of an earlier build.
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
