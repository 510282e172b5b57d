package report

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// renderings renders in every way a run is shown, by name; HTML is
// unescaped so that tests can look for plain text in it.
func renderings(t *testing.T, in *Input) map[string]string {
	t.Helper()
	var text bytes.Buffer
	if err := WriteText(&text, in); err != nil {
		t.Fatal(err)
	}
	js, err := SummaryJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	ju, err := JUnit(in)
	if err != nil {
		t.Fatal(err)
	}
	final, err := json.Marshal(NewFinal(in, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	var brief bytes.Buffer
	if err := WriteBrief(&brief, in); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"text": text.String(), "brief": brief.String(), "summary.json": string(js), "junit": html.UnescapeString(string(ju)),
		"markdown": strings.ReplaceAll(string(Markdown(in)), `\_`, "_"), "report.html": html.UnescapeString(renderHTML(t, in)),
		"dashboard end": string(final)}
	for k, v := range out {
		out[k] = strings.Join(strings.Fields(v), " ") // the terminal's lines are wrapped
	}
	return out
}

// deadRun is a run against a target that accepted 60 connections and never
// answered: every request timed out, and the last ones were cut off.
func deadRun(t *testing.T) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range 60 {
		r := sample.Request{End: time.Second + time.Duration(i)*time.Millisecond, Duration: 400 * time.Millisecond,
			Kind: sample.Timeout, Err: "timeout awaiting response headers"}
		if i >= 50 {
			r.Kind, r.Err, r.Duration = sample.Interrupted, "cut off by the end of the run", 150*time.Millisecond
		}
		sink.Request(&r)
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.Add(rec.Collect(1))
	run.SetElapsed(2 * time.Second)
	var defs []threshold.Threshold
	for _, kv := range [][2]string{{"http_req_duration", "p(95)<500ms"}, {"http_req_failed", "rate<0.01"}} {
		th, err := threshold.New(kv[0], kv[1])
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, th)
	}
	var results []threshold.Result
	for i := range defs {
		results = append(results, run.Evaluate(&defs[i]))
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "dead", Status: "completed", Version: "test", Start: start, End: start.Add(2 * time.Second),
		Run: run, Thresholds: defs, Results: results}
}

func TestADeadTargetReadsTheSameEverywhere(t *testing.T) {
	in := deadRun(t)
	if in.Passed() || Verdict(in) != VerdictFail {
		t.Fatalf("a run in which nothing was answered passed: %+v", in.Results)
	}
	if js := renderings(t, in)["summary.json"]; !strings.Contains(js, `"reason": "no completed request (60 sent)"`) {
		t.Errorf("summary.json gives no reason:\n%s", js)
	}
	for name, out := range renderings(t, in) {
		for _, want := range []string{"no completed request (60 sent)",
			"10 requests were cut off by the end of the run (interrupted): they count as failed, and their durations are lower bounds"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
	ju := renderings(t, in)["junit"]
	if !strings.Contains(ju, `<failure message="no completed request (60 sent)" type="threshold">http_req_duration p(95)<500ms failed: no completed request (60 sent)`) ||
		!strings.Contains(ju, `failures="2"`) {
		t.Errorf("JUnit does not fail the latency threshold with its reason:\n%s", ju)
	}
}

func TestTruncatedBodiesReadTheSameEverywhere(t *testing.T) {
	tests := []struct {
		name string
		caps []int64
		want string
	}{
		{"one known cap", []int64{1 << 20, 1 << 20, 0}, "12 response bodies were longer than max_body (1 MiB): checks and extractions saw only their first 1 MiB."},
		{"unknown cap", nil, "12 response bodies were truncated past max_body: checks and extractions saw only their start."},
		{"caps that differ", []int64{64 << 10, 1 << 20, 0}, "12 response bodies were truncated past max_body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fixture(t)
			in.BodyCaps = tt.caps
			if tt.name == "caps that differ" {
				in.Run.Endpoints[1].Truncated = 1 // endpoint 1's cap is another one
				defer func() { in.Run.Endpoints[1].Truncated = 0 }()
				tt.want = "13 response bodies were truncated past max_body"
			}
			for name, out := range renderings(t, in) {
				if !strings.Contains(out, tt.want) {
					t.Errorf("%s lacks %q", name, tt.want)
				}
			}
		})
	}
}

// TestNewFailureKindsAreListed checks that requests cut off by the end of
// the run and redirect failures appear wherever failures are broken down
// by kind, as the older kinds do.
func TestNewFailureKindsAreListed(t *testing.T) {
	out := renderings(t, fixture(t))
	wants := map[string][]string{
		"text":         {"interrupted 1 browse · GET /products/{id}", "redirect 1 buy · POST /coupons/issue 0:01 redirect loop"},
		"markdown":     {"| interrupted | browse · GET /products/{id} | 1 |", "| redirect | buy · POST /coupons/issue | 1 |"},
		"summary.json": {`"interrupted": 1, "timeout": 1`, `"kind": "redirect"`, `"http_4xx": 12, "redirect": 1`},
		"report.html":  {`<td class="mono">interrupted</td><td class="name">browse · GET /products/{id}</td>`, `<td class="mono">redirect</td><td class="name">buy · POST /coupons/issue</td>`},
	}
	for name, ws := range wants {
		for _, w := range ws {
			if !strings.Contains(out[name], w) {
				t.Errorf("%s lacks %q", name, w)
			}
		}
	}
}

// TestJUnitGateCaseSaysTheRunsUnit: the case JUnit fails for a run in which
// nothing succeeded (and whose thresholds, if any, passed) names what the
// run counts: "no call succeeded" for gRPC, as before for HTTP.
func TestJUnitGateCaseSaysTheRunsUnit(t *testing.T) {
	for _, tc := range []struct{ protocol, want string }{
		{"", `name="no request succeeded"`},
		{"grpc", `name="no call succeeded"`},
		{"ws", `name="no session succeeded"`},
	} {
		in := deadRun(t)
		in.Run.Layout.Endpoints[0].Protocol = tc.protocol
		th, err := threshold.New("http_req_failed", "rate<=1") // passes: the gate's case is what fails
		if err != nil {
			t.Fatal(err)
		}
		in.Thresholds, in.Results = []threshold.Threshold{th}, []threshold.Result{in.Run.Evaluate(&th)}
		if ju := renderings(t, in)["junit"]; !strings.Contains(ju, tc.want) {
			t.Errorf("%q: JUnit lacks %s:\n%s", tc.protocol, tc.want, ju)
		}
	}
}
