package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// shortRun is a closed-model run of 0.25 s whose n requests to two
// endpoints went out one after another, each taking 0.4 ms.
func shortRun(t *testing.T, n int) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "users", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "POST /login", Method: "POST"}, {Scenario: 0, Name: "GET /use", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range n {
		end := time.Duration(i+1) * 400 * time.Microsecond
		sink.Request(&sample.Request{Endpoint: int32(i % 2), End: end, Duration: 400 * time.Microsecond, Status: 200})
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(250 * time.Millisecond)
	start := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "flow", Status: "completed", Version: "test", Start: start, End: start.Add(250 * time.Millisecond), Run: run}
}

// TestHeadlineRateIsTheTables: the headline's rate is the endpoints
// table's all-endpoints rate, one rule over one span (a 0.25 s run read
// "570 requests (2,292/s)" above "RPS 570"), and one request has none, as
// its row has none ("1 request (35.8/s)" beside "-").
func TestHeadlineRateIsTheTables(t *testing.T) {
	for _, c := range []struct {
		n          int
		head, card string
	}{{570, "570 requests (570/s)", "570 req/s"}, {1, "1 request · ", "-"}} {
		in := shortRun(t, c.n)
		var b bytes.Buffer
		if err := WriteText(&b, in); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, c.head) {
			t.Errorf("%d requests: the headline is not %q:\n%s", c.n, c.head, out)
		}
		if c.n > 1 {
			row := regexp.MustCompile(`all endpoints +570 +\S+ +(\S+) `).FindStringSubmatch(out)
			if row == nil || row[1] != "570" {
				t.Errorf("the all endpoints row's RPS is %v, want the headline's 570:\n%s", row, out)
			}
		}
		if md := string(Markdown(in)); !strings.Contains(md, "| "+c.card+" |") {
			t.Errorf("%d requests: Markdown's throughput is not %q:\n%s", c.n, c.card, md)
		}
	}
}
