package metrics

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// threeSeconds returns a run of three hand-made seconds:
// endpoint 0 serves 10, 20, 30 requests of 10 ms, 20 ms, 30 ms;
// endpoint 2 serves 5 requests of 100 ms in second 1, 2 of them timeouts;
// scenario 0 runs 4, 6, 2 VUs (8 allocated), scenario 1 drops 1 iteration
// per second; check 0 passes 9 and fails 1 in every second.
func threeSeconds() *Run {
	run := NewRun(testLayout())
	for sec := range 3 {
		s := NewSnapshot(sec, run.Layout)
		n := 10 * (sec + 1)
		e := &s.Endpoints[0]
		e.Requests, e.Sent, e.Received = int64(n), int64(100*n), int64(1000*n)
		e.Duration, e.Waiting = NewHist(), NewHist()
		for range n {
			e.Duration.Record(time.Duration(n) * time.Millisecond)
			e.Waiting.Record(time.Duration(n/2) * time.Millisecond)
		}
		e.Connects, e.ConnectSum, e.ConnectMax = 2, 6*time.Millisecond, 4*time.Millisecond
		if sec == 1 {
			p := &s.Endpoints[2]
			p.Requests, p.Failures[sample.Timeout] = 5, 2
			p.Duration, p.Waiting = histOf(100, 100, 100, 100, 100), histOf(1, 1, 1, 1, 1)
			for i := range 7 {
				p.Errors = append(p.Errors, ErrorSample{Kind: sample.Timeout, Message: fmt.Sprint("m", i), Count: 1})
			}
		}
		s.Scenarios[0] = ScenarioSecond{Iterations: int64(n), VUs: []int64{4, 6, 2}[sec], VUsMax: 8,
			IterationDuration: histOf(500), Lag: histOf(sec + 1)}
		s.Scenarios[1] = ScenarioSecond{Dropped: 1, VUs: 1, VUsMax: 1}
		s.Checks[0] = CheckSecond{Passes: 9, Fails: 1}
		run.Add(s)
	}
	return run
}

func TestRunTotalsAndSeries(t *testing.T) {
	run := threeSeconds()
	total := run.Total()
	tests := []struct {
		name      string
		got, want any
	}{
		{"endpoint 0 requests", run.Endpoints[0].Requests, int64(60)},
		{"endpoint 0 p50 is 20 ms", run.Endpoints[0].Duration.Quantile(50), 20 * time.Millisecond},
		{"total requests", total.Requests, int64(65)},
		{"total duration samples", total.Duration.Count(), int64(65)},
		{"total max", total.Duration.Max(), 100 * time.Millisecond},
		{"total timeouts", total.Failures[sample.Timeout], int64(2)},
		{"error groups", len(total.Errors), 1},
		{"group count", total.Errors[0].Count, int64(2)},
		{"group first second", total.Errors[0].First, 1},
		{"group last second", total.Errors[0].Last, 1},
		{"group keeps 3 samples", len(total.Errors[0].Samples), 3},
		{"group counts the rest as others", total.Errors[0].Others(), int64(0)},
		{"connect sum", total.ConnectSum, 18 * time.Millisecond},
		{"vus min", run.Scenarios[0].VUsMin, int64(2)},
		{"vus max", run.Scenarios[0].VUsMax, int64(6)},
		{"vus last", run.Scenarios[0].VUsLast, int64(2)},
		{"vus allocated", run.Scenarios[0].VUsMaxAllocated, int64(8)},
		{"dropped", run.Scenarios[1].Dropped, int64(3)},
		{"lag samples", run.Scenarios[0].Lag.Count(), int64(3)},
		{"check passes", run.Checks[0].Passes, int64(27)},
		{"series length", len(run.Series), 3},
		{"second 1 requests", run.Series[1].Requests, int64(25)},
		{"second 1 failed", run.Series[1].Failed, int64(2)},
		{"second 1 failed by kind: timeouts", run.Series[1].Failures[sample.Timeout], int64(2)},
		{"second 1 failed by kind: no 5xx", run.Series[1].Failures[sample.HTTP5xx], int64(0)},
		{"second 0 failed by kind: none", run.Series[0].Failures[sample.Timeout], int64(0)},
		{"second 1 max", run.Series[1].Max, 100 * time.Millisecond},
		{"second 1 p50", run.Series[1].P50, 20 * time.Millisecond},
		{"second 1 vus (both scenarios)", run.Series[1].VUs, int64(7)},
		{"second 1 vus_max", run.Series[1].VUsMax, int64(9)},
		{"second 1 dropped", run.Series[1].Dropped, int64(1)},
		{"second 2 lag p99", run.Series[2].LagP99, 3 * time.Millisecond},
		{"second 1 endpoint 2 failed", run.Series[1].PerEndpoint[2].Failed, int64(2)},
		{"second 1 endpoint 2 p99", run.Series[1].PerEndpoint[2].P99, 100 * time.Millisecond},
		{"second 0 endpoint 2 p99 (no requests)", run.Series[0].PerEndpoint[2].P99, time.Duration(0)},
		{"default elapsed", run.Elapsed(), 3 * time.Second},
	}
	for _, tt := range tests {
		if !equalish(tt.got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	run.SetElapsed(1500 * time.Millisecond)
	if run.Elapsed() != 1500*time.Millisecond {
		t.Errorf("Elapsed() after SetElapsed = %v, want 1.5s", run.Elapsed())
	}
	total.Duration.Record(time.Second)
	if run.Endpoints[0].Duration.Count() != 60 {
		t.Error("Total shares a histogram with the run")
	}
}

func TestRunErrorGroupsAcrossSeconds(t *testing.T) {
	run := NewRun(testLayout())
	for _, sec := range []int{2, 5, 9} {
		s := NewSnapshot(sec, run.Layout)
		e := &s.Endpoints[1]
		e.Requests = 4
		e.Failures[sample.DNS] = 1
		e.Failures[sample.HTTP5xx] = 3
		e.Errors = []ErrorSample{{Kind: sample.HTTP5xx, Status: 500, Message: "boom", Count: 3}, {Kind: sample.DNS, Message: "nx", Count: 1}}
		run.Add(s)
	}
	groups := run.Endpoints[1].Errors
	if len(groups) != 2 || groups[0].Kind != sample.HTTP5xx || groups[1].Kind != sample.DNS {
		t.Fatalf("groups %+v: want 5xx then dns", groups)
	}
	g := groups[0]
	if g.Count != 9 || g.First != 2 || g.Last != 9 || len(g.Samples) != 1 || g.Samples[0].Count != 9 {
		t.Errorf("5xx group %+v: want count 9, seconds 2..9, one sample counted 9", g)
	}
}

// equalish compares durations to the histograms' precision, others exactly.
func equalish(got, want any) bool {
	g, gok := got.(time.Duration)
	w, wok := want.(time.Duration)
	if gok && wok {
		return within(g, w)
	}
	return got == want
}
