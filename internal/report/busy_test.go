package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestBusyVUsAreThePeakOfTheSecondsSums: two scenarios busy at their
// peaks in different seconds were never busy together; every rendering
// says the most busy at once, as summary.json's vus.max does.
func TestBusyVUsAreThePeakOfTheSecondsSums(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "arrival-rate"}, {Name: "b", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /a", Method: "GET"}, {Scenario: 1, Name: "GET /b", Method: "GET"}}}
	run := metrics.NewRun(layout)
	busy := [][2]int64{{20, 5}, {4, 18}, {10, 10}} // sums 25, 22, 20; the scenarios' own peaks add to 38
	for sec, b := range busy {
		snap := metrics.NewSnapshot(sec, layout)
		for i := range snap.Scenarios {
			snap.Scenarios[i].VUs, snap.Scenarios[i].VUsMax, snap.Scenarios[i].Iterations = b[i], 50, 10
		}
		run.Add(snap)
	}
	run.SetElapsed(3 * time.Second)
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	in := &Input{Name: "busy", Status: "completed", Version: "test", Start: start, End: start.Add(3 * time.Second), Run: run}
	out := renderings(t, in)
	var js struct {
		Metrics struct {
			VUs struct {
				Max int64 `json:"max"`
			} `json:"vus"`
		} `json:"metrics"`
	}
	raw, err := SummaryJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	if js.Metrics.VUs.Max != 25 {
		t.Fatalf("summary.json vus.max = %d, want 25", js.Metrics.VUs.Max)
	}
	for name, want := range map[string]string{"text": "up to 100 VUs (25 busy)", "report.html": "up to 25 busy"} {
		if !strings.Contains(out[name], want) {
			t.Errorf("%s lacks %q:\n%s", name, want, out[name])
		}
		if strings.Contains(out[name], "38 busy") {
			t.Errorf("%s adds the scenarios' own peaks (38):\n%s", name, out[name])
		}
	}
}
