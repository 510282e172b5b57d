package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestGroupsShown: a test with flow groups gets a GROUP table in the
// terminal summary and group_duration in summary.json (k6's metric, and
// each group in loadlens's section); a test without groups gets neither.
func TestGroupsShown(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}},
		Groups:    []sample.GroupInfo{{Scenario: 0, Name: "::login"}, {Scenario: 0, Name: "::never"}}}
	rec := metrics.NewRecorder(layout, 1)
	for i := range 10 {
		rec.Sink(0).Request(&sample.Request{End: time.Second / 2, Duration: 10 * time.Millisecond, Status: 200})
		rec.Sink(0).Group(0, time.Second/2, time.Duration(i+1)*10*time.Millisecond)
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	in := &Input{Name: "groups", Status: "completed", Start: start, End: start.Add(time.Second), Run: run}
	var text bytes.Buffer
	if err := WriteText(&text, in); err != nil {
		t.Fatal(err)
	}
	var loginRow, neverRow string
	for _, line := range strings.Split(text.String(), "\n") {
		switch {
		case strings.Contains(line, "::login"):
			loginRow = strings.Join(strings.Fields(line), " ")
		case strings.Contains(line, "::never"):
			neverRow = strings.Join(strings.Fields(line), " ")
		}
	}
	if !strings.Contains(text.String(), "GROUP") || !strings.HasPrefix(loginRow, "::login 10 10") || neverRow != "::never 0 - - - - - - -" {
		t.Errorf("summary's groups: %q and %q in\n%s", loginRow, neverRow, text.String())
	}
	js, err := SummaryJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Metrics  map[string]map[string]any `json:"metrics"`
		Loadlens struct {
			Groups []struct {
				Name     string         `json:"name"`
				Duration map[string]any `json:"duration"`
			} `json:"groups"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(js, &out); err != nil {
		t.Fatal(err)
	}
	if gd := out.Metrics["group_duration"]; gd == nil || gd["count"] != float64(10) {
		t.Errorf("summary.json's group_duration: %v", gd)
	}
	if g := out.Loadlens.Groups; len(g) != 2 || g[0].Name != "::login" || g[0].Duration["count"] != float64(10) {
		t.Errorf("summary.json's groups: %+v", g)
	}

	in.Run = metrics.NewRun(sample.Layout{Scenarios: layout.Scenarios, Endpoints: layout.Endpoints})
	text.Reset()
	_ = WriteText(&text, in)
	js, _ = SummaryJSON(in)
	if strings.Contains(text.String(), "GROUP") || strings.Contains(string(js), "group_duration") {
		t.Errorf("a test without groups shows them")
	}
}
