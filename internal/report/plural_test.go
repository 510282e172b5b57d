package report

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// oneOfEach is a run of one VU that sent one request in one iteration,
// dropped one iteration and was judged by one threshold.
func oneOfEach(t *testing.T) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	sink.Request(&sample.Request{End: 100 * time.Millisecond, Duration: 50 * time.Millisecond, Status: 200})
	sink.Iteration(0, 100*time.Millisecond, 50*time.Millisecond)
	sink.Dropped(0, 200*time.Millisecond)
	snap := rec.Collect(0)
	snap.Scenarios[0].VUs, snap.Scenarios[0].VUsMax = 1, 1
	run := metrics.NewRun(layout)
	run.Add(snap)
	run.SetElapsed(time.Second)
	th, err := threshold.New("http_req_duration", "p(95)<500ms")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "one", Status: "completed", Version: "test", Start: start, End: start.Add(time.Second),
		Run: run, Thresholds: []threshold.Threshold{th}, Results: []threshold.Result{run.Evaluate(&th)}}
}

func TestOneOfEachIsSingular(t *testing.T) {
	in := oneOfEach(t)
	want := map[string][]string{
		"text":        {"1 request · ", "1 iteration ·", "up to 1 VU ·", "1 iteration was dropped", "PASS: 1 threshold passed"},
		"brief":       {"1 request · "}, // one request: no rate, as its table row has none
		"markdown":    {"1 iteration was dropped"},
		"report.html": {"1 request in", "1 iteration ·", "1 iteration was dropped"},
	}
	plural := []string{"1 requests", "1 iterations", "1 VUs", "1 thresholds", "all 1 "}
	got := renderings(t, in)
	for name, ws := range want {
		for _, w := range ws {
			if !strings.Contains(got[name], w) {
				t.Errorf("%s lacks %q:\n%s", name, w, got[name])
			}
		}
		for _, p := range plural {
			if strings.Contains(got[name], p) {
				t.Errorf("%s says %q:\n%s", name, p, got[name])
			}
		}
	}
}
