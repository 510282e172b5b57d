package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// notSentRun is trial B's run as recorded now: one iteration sent its
// request, six ended before sending theirs (a data value with a line
// break), with a threshold on http_req_failed and one on the iterations
// not sent.
func notSentRun(t *testing.T) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "iterations"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /u/{{ user }}", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	sink.Request(&sample.Request{Endpoint: 0, End: 2 * time.Millisecond, Duration: time.Millisecond, Status: 200})
	sink.Iteration(0, 2*time.Millisecond, time.Millisecond)
	for range 6 {
		sink.Iteration(0, 3*time.Millisecond, 0)
		sink.NotSent(0, 3*time.Millisecond, "not sent: GET /u/{{ user }} has a line break at byte 4 once filled in")
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(12 * time.Millisecond)
	in := &Input{Name: "nul.yaml", Status: "completed", Version: "test", Start: time.Unix(0, 0), End: time.Unix(0, 0), Run: run}
	for _, th := range [][2]string{{"http_req_failed", "rate<0.01"}, {"iterations_not_sent", "count<1"}} {
		tt, err := threshold.New(th[0], th[1])
		if err != nil {
			t.Fatal(err)
		}
		in.Thresholds = append(in.Thresholds, tt)
		in.Results = append(in.Results, run.Evaluate(&tt))
	}
	return in
}

// TestNotSentIsSaidEverywhere: iterations that ended before sending are
// said, with their count and reason, in every output, and in no request
// figure: http_req_failed passes on the one request sent, and a threshold
// on iterations_not_sent fails. Before, the six were requests of kind
// other: "7 requests … 85.71% failed".
func TestNotSentIsSaidEverywhere(t *testing.T) {
	in := notSentRun(t)
	const said = "6 iterations ended before sending (no request: in no request figure, nor http_req_failed): " +
		"GET /u/{{ user }} has a line break at byte 4 once filled in"
	if !in.Results[0].Pass || in.Results[1].Pass {
		t.Errorf("http_req_failed passed %v, iterations_not_sent passed %v; want true, false", in.Results[0].Pass, in.Results[1].Pass)
	}
	var text bytes.Buffer
	if err := WriteText(&text, in); err != nil {
		t.Fatal(err)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	md := strings.ReplaceAll(string(Markdown(in)), `\_`, "_")
	for _, o := range []struct{ name, out, count string }{{"terminal", text.String(), "1 request · "}, {"markdown", md, "| 1 | "}} {
		if !strings.Contains(flat(o.out), said) {
			t.Errorf("%s does not say %q:\n%s", o.name, said, o.out)
		}
		if !strings.Contains(o.out, o.count) {
			t.Errorf("%s does not count the one request sent alone (%q):\n%s", o.name, o.count, o.out)
		}
	}
	js, err := SummaryJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Metrics map[string]struct {
			Count int64 `json:"count"`
		} `json:"metrics"`
		Loadlens struct {
			NotSent   int64    `json:"iterations_not_sent"`
			Warnings  []string `json:"warnings"`
			Scenarios []struct {
				NotSent struct {
					Iterations int64 `json:"iterations"`
					Reasons    []struct {
						Message string `json:"message"`
						Count   int64  `json:"count"`
					} `json:"reasons"`
				} `json:"not_sent"`
			} `json:"scenarios"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(js, &s); err != nil {
		t.Fatal(err)
	}
	l := s.Loadlens
	if s.Metrics["http_reqs"].Count != 1 || s.Metrics["iterations"].Count != 7 || s.Metrics["iterations_not_sent"].Count != 6 || l.NotSent != 6 {
		t.Errorf("summary.json: %d http_reqs, %d iterations, %d and %d not sent; want 1, 7, 6 and 6", s.Metrics["http_reqs"].Count,
			s.Metrics["iterations"].Count, s.Metrics["iterations_not_sent"].Count, l.NotSent)
	}
	if sc := l.Scenarios[0].NotSent; sc.Iterations != 6 || len(sc.Reasons) != 1 || sc.Reasons[0].Count != 6 {
		t.Errorf("summary.json's scenario: %+v, want 6 not sent, one reason counted 6", sc)
	}
	if !strings.Contains(flat(strings.Join(l.Warnings, "\n")), said) {
		t.Errorf("summary.json's warnings %q lack %q", l.Warnings, said)
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "6 iterations ended before sending") {
		t.Errorf("report.html does not say the iterations not sent")
	}
}
