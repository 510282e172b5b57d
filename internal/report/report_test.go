package report

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"
	"time"

	goldenfile "github.com/loadlens/loadlens/internal/golden"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixture is a deterministic 3-second run: two scenarios, three endpoints,
// failures of four kinds (one cut off by the end of the run, one redirect
// loop), truncated bodies, checks, drops, and thresholds that pass and fail.
func fixture(t *testing.T) *Input {
	t.Helper()
	layout := sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "arrival-rate"}, {Name: "buy", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{
			{Scenario: 0, Name: "GET /apps/first-page", Method: "GET"},
			{Scenario: 0, Name: "GET /products/{id}", Method: "GET"},
			{Scenario: 1, Name: "POST /coupons/issue", Method: "POST"},
		},
		Checks: []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: "status is 200"}, {Scenario: 1, Endpoint: 2, Name: "$.remaining >= 0"}},
	}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	run := metrics.NewRun(layout)
	for sec := 0; sec < 3; sec++ {
		for i := 0; i < 100; i++ {
			at := time.Duration(sec)*time.Second + time.Duration(i)*10*time.Millisecond
			ep := int32(i % 3)
			req := sample.Request{Endpoint: ep, End: at, Duration: time.Duration(1+i) * time.Millisecond, Waiting: time.Duration(1+i) * 900 * time.Microsecond,
				Sent: 100, Received: 1000, Status: 200}
			if ep == 2 && i%10 == 2 {
				req.Status, req.Kind, req.Err = 409, sample.HTTP4xx, "409 Conflict"
			}
			if ep == 1 && i == 1 && sec == 2 {
				req.Status, req.Kind, req.Err, req.Duration = 0, sample.Timeout, "context deadline exceeded", 5*time.Second
			}
			if ep == 1 && i >= 97 && sec == 2 {
				req.Status, req.Kind, req.Err = 0, sample.Interrupted, "cut off by the end of the run"
			}
			if ep == 2 && i == 5 && sec == 1 {
				req.Status, req.Kind, req.Err, req.Redirects = 302, sample.Redirect, "redirect loop: /coupons/issue → /coupons/issue", 3
			}
			req.Truncated = ep == 0 && i%30 == 0
			sink.Request(&req)
			sink.Check(int32(ep%2), at, !(ep == 2 && i%10 == 2))
			sink.Iteration(int32(ep/2), at, req.Duration)
			sink.Lag(0, at, time.Duration(i)*time.Microsecond)
		}
		sink.Dropped(0, time.Duration(sec)*time.Second)
		snap := rec.Collect(sec)
		snap.SetGauges([]sample.Gauge{{Active: 4, Allocated: 10}, {Active: 2, Allocated: 2}})
		run.Add(snap)
	}
	run.SetElapsed(3 * time.Second)
	defs := []threshold.Threshold{}
	for _, kv := range [][2]string{
		{"http_req_duration", "p(95) < 800ms"},
		{`http_req_duration{endpoint:"GET /apps/first-page"}`, "p(99) < 50ms"},
		{"http_req_failed", "rate < 1%"},
		{"checks", "rate > 0.9"},
	} {
		th, err := threshold.New(kv[0], kv[1])
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, th)
	}
	results := make([]threshold.Result, len(defs))
	for i := range defs {
		results[i] = run.Evaluate(&defs[i])
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "shop", Dir: "results/20261122-100000-shop", Status: "completed", Version: "test",
		Start: start, End: start.Add(3 * time.Second), Run: run, Thresholds: defs, Results: results, BodyCaps: []int64{1 << 20, 1 << 20, 0},
		Notices: []string{"scenario buy: the 5 unique rows of users.csv ran out; the scenario stops"},
		Findings: []diagnose.Finding{{Kind: diagnose.KindPoolExhaustion, Severity: diagnose.Critical, From: 1, To: 2,
			Parts: diagnose.Words("DB pool exhausted: 10 of 10 connections in use, 71 waiting (go_sql, role=app) from 1s"),
			Evidence: []diagnose.Evidence{{Source: `go_sql_in_use_connections{role="app"}`, Sec: 1, Value: 10,
				Parts: []diagnose.Segment{{Figure: 0}, {Text: " of 10 connections in use", Figure: -1}}}},
			Figures: []diagnose.Figure{{Value: 10, Unit: diagnose.UnitCount, What: "connections in use", Source: `go_sql_in_use_connections{role="app"}`,
				Stat: diagnose.StatMax, From: 1, To: 2}},
			Remedies: []string{"hold a connection only while you use it", "make the slow query fast"}}}}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

func TestRenderings(t *testing.T) {
	in := fixture(t)
	cases := []struct {
		name   string
		render func() ([]byte, error)
	}{
		{"summary.txt", func() ([]byte, error) {
			var b bytes.Buffer
			err := WriteText(&b, in)
			return b.Bytes(), err
		}},
		{"summary.json", func() ([]byte, error) { return SummaryJSON(in) }},
		{"summary.junit.xml", func() ([]byte, error) { return JUnit(in) }},
		{"summary.md", func() ([]byte, error) { return Markdown(in), nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.render()
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, got)
		})
	}
}
