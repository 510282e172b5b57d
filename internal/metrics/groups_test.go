package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// groupLayout has two scenarios, each with a group, and one more group of
// the first scenario.
var groupLayout = sample.Layout{
	Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "vus"}, {Name: "b", Model: "vus"}},
	Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}},
	Groups:    []sample.GroupInfo{{Scenario: 0, Name: "::login"}, {Scenario: 1, Name: "::login"}, {Scenario: 0, Name: "::idle"}},
}

// TestGroupDuration: group runs recorded by the engine reach a snapshot,
// survive the wire format, add up in the whole-run model and are judged by
// group_duration thresholds filtered by group and scenario.
func TestGroupDuration(t *testing.T) {
	rec := NewRecorder(groupLayout, 2)
	for i := range 100 {
		rec.Sink(i).Group(0, 500*time.Millisecond, time.Duration(i+1)*time.Millisecond) // 1ms..100ms
		rec.Sink(i).Group(1, 500*time.Millisecond, time.Second)
	}
	snap := rec.Collect(0)
	b, err := snap.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != 5 {
		t.Errorf("a snapshot with groups is written as version %d, want 5", b[3])
	}
	var back Snapshot
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := back.CheckLayout(groupLayout); err != nil {
		t.Fatal(err)
	}
	run := NewRun(groupLayout)
	run.Add(&back)
	run.SetElapsed(time.Second)
	tests := []struct{ key, expr, want string }{
		{`group_duration{group:::login,scenario:a}`, "p(95)<200ms", "pass"},
		{`group_duration{group:::login,scenario:a}`, "max<50ms", "fail"},
		{`group_duration{group:::login}`, "count==200", "pass"},
		{`group_duration{scenario:b}`, "min>990ms", "pass"},
		{`group_duration{group:::idle}`, "p(95)<1s", "fail: no data: no group completed"},
		{`group_duration`, "max<1010ms", "pass"},
	}
	for _, tt := range tests {
		th, err := threshold.New(tt.key, tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.key, err)
		}
		res := run.Evaluate(&th)
		got := "fail"
		if res.Pass {
			got = "pass"
		}
		if res.Reason != "" {
			got += ": " + res.Reason
		}
		if got != tt.want {
			t.Errorf("%s %s: %s (observed %v), want %s", tt.key, tt.expr, got, res.Observed, tt.want)
		}
	}
}

// TestSnapshotWithoutGroupsStaysVersion4: a test without groups writes the
// format earlier builds read, so a mixed fleet of agents keeps working.
func TestSnapshotWithoutGroupsStaysVersion4(t *testing.T) {
	layout := sample.Layout{Scenarios: groupLayout.Scenarios, Endpoints: groupLayout.Endpoints}
	b, err := NewRecorder(layout, 1).Collect(0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != 4 {
		t.Errorf("version %d, want 4", b[3])
	}
	var back Snapshot
	if err := back.UnmarshalBinary(b); err != nil || len(back.Groups) != 0 {
		t.Errorf("read back: %v, %d groups", err, len(back.Groups))
	}
	wrong := NewSnapshot(0, groupLayout)
	if err := wrong.CheckLayout(layout); err == nil || !strings.Contains(err.Error(), "3 groups; the layout has 0") {
		t.Errorf("CheckLayout of a snapshot with groups against a layout without: %v", err)
	}
}
