package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

func TestSnapshotMerge(t *testing.T) {
	layout := testLayout()
	a, b := NewSnapshot(4, layout), NewSnapshot(4, layout)
	a.Endpoints[0] = EndpointSecond{Figures: Figures{Requests: 3, Truncated: 1, Sent: 10, ConnectMax: time.Millisecond, Duration: histOf(1, 2, 3)},
		Sends:  Sends{Kept: true, FirstStart: 4100 * time.Millisecond, LastStart: 4600 * time.Millisecond, LastEnd: 4700 * time.Millisecond},
		Errors: []ErrorSample{{Kind: sample.Timeout, Message: "x", Count: 1}, {Kind: sample.Timeout, Message: "y", Count: 1}}}
	a.Endpoints[0].Failures[sample.Timeout] = 2
	b.Endpoints[0] = EndpointSecond{Figures: Figures{Requests: 2, Truncated: 2, Sent: 5, ConnectMax: 3 * time.Millisecond, Duration: histOf(10, 20)},
		Sends: Sends{Kept: true, FirstStart: 3900 * time.Millisecond, LastStart: 4500 * time.Millisecond, LastEnd: 4900 * time.Millisecond},
		Errors: []ErrorSample{{Kind: sample.Timeout, Message: "y", Count: 4}, {Kind: sample.Timeout, Message: "z", Count: 1},
			{Kind: sample.Timeout, Message: "w", Count: 1}, {Kind: sample.DNS, Message: "no host", Count: 2}}}
	b.Endpoints[0].Failures[sample.Timeout] = 6
	b.Endpoints[0].Failures[sample.DNS] = 2
	b.Endpoints[1].Duration = histOf(7) // a has none: merging must not alias b's
	a.Scenarios[1] = ScenarioSecond{Iterations: 1, Offered: 4, VUs: 2, VUsMax: 5}
	b.Scenarios[1] = ScenarioSecond{Iterations: 2, Offered: 3, VUs: 3, VUsMax: 5, Lag: histOf(1)}
	a.Checks[1] = CheckSecond{Passes: 1, Fails: 2}
	b.Checks[1] = CheckSecond{Passes: 3}

	a.Merge(b)

	e := a.Endpoints[0]
	tests := []struct {
		name      string
		got, want int64
	}{
		{"requests", e.Requests, 5},
		{"sent", e.Sent, 15},
		{"truncated", e.Truncated, 3},
		{"timeouts", e.Failures[sample.Timeout], 8},
		{"dns", e.Failures[sample.DNS], 2},
		{"duration samples", e.Duration.Count(), 5},
		{"connect max", int64(e.ConnectMax), int64(3 * time.Millisecond)},
		{"error samples (3 timeouts + 1 dns)", int64(len(e.Errors)), 4},
		{"count of sample y", e.Errors[1].Count, 5},
		{"iterations", a.Scenarios[1].Iterations, 3},
		{"offered arrivals add", a.Scenarios[1].Offered, 7},
		{"first start: the earlier", int64(e.Sends.FirstStart), int64(3900 * time.Millisecond)},
		{"last start: the later", int64(e.Sends.LastStart), int64(4600 * time.Millisecond)},
		{"last end: the later", int64(e.Sends.LastEnd), int64(4900 * time.Millisecond)},
		{"vus add", a.Scenarios[1].VUs, 5},
		{"vus_max add", a.Scenarios[1].VUsMax, 10},
		{"lag samples", a.Scenarios[1].Lag.Count(), 1},
		{"check passes", a.Checks[1].Passes, 4},
		{"check fails", a.Checks[1].Fails, 2},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	if e.Errors[2].Message != "z" || e.Errors[3].Kind != sample.DNS {
		t.Errorf("error samples %+v: want x, y, z then the dns one", e.Errors)
	}
	if !e.Sends.Kept {
		t.Error("two spans of starts merged into none")
	}
	a.Endpoints[1].Duration.Record(time.Second)
	if b.Endpoints[1].Duration.Count() != 1 {
		t.Error("the merged snapshot shares a histogram with its source")
	}
	if a.Second != 4 {
		t.Errorf("second %d, want 4", a.Second)
	}
}

func TestSnapshotLayoutMismatch(t *testing.T) {
	s := NewSnapshot(0, testLayout())
	other := sample.Layout{Endpoints: []sample.EndpointInfo{{Name: "x"}}}
	if err := s.CheckLayout(other); err == nil {
		t.Error("CheckLayout accepted a snapshot of another layout")
	}
	if err := s.CheckLayout(testLayout()); err != nil {
		t.Errorf("CheckLayout rejected its own layout: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Merge of different layouts did not panic")
		}
	}()
	s.Merge(NewSnapshot(0, other))
}

// histOf returns a histogram of the given milliseconds.
func histOf(msecs ...int) *Hist {
	h := NewHist()
	for _, m := range msecs {
		h.Record(time.Duration(m) * time.Millisecond)
	}
	return h
}
