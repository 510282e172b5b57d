package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// TestTerminalSummaryFitsTerminal: the end-of-run summary, with long
// findings, the healthy statement and "!" notes, keeps every line within
// units.Columns.
func TestTerminalSummaryFitsTerminal(t *testing.T) {
	load := func(name string) (d struct {
		Findings []diagnose.Finding
		Healthy  *diagnose.Verdict
	}) {
		raw, err := os.ReadFile(filepath.Join("..", "diagnose", "testdata", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	diag := load("incident")
	diag.Healthy = load("healthy").Healthy
	in := deadRun(t)
	in.Findings, in.Healthy = diag.Findings, diag.Healthy
	in.Healthy.Parts = append(in.Healthy.Parts, diagnose.Segment{Text: strings.Repeat(" and a long reason", 10), Figure: -1})
	in.Notices = []string{"scenario default: " + strings.Repeat("a long notice ", 12)}
	// fresh39's, a 151-column line under a header broken onto two lines: the observed text wraps in its column.
	in.Results[0].Reason = "183 of 366 requests failed (50.00%): more than the 5.00% p(95) leaves out; p(95)=34.5ms over all 366 requests, failed ones included"
	var b bytes.Buffer
	if err := WriteText(&b, in); err != nil {
		t.Fatal(err)
	}
	withHealthy := *in
	withHealthy.Findings = nil
	if err := WriteBrief(&b, in); err != nil { // the demo's short summaries
		t.Fatal(err)
	}
	if err := WriteBrief(&b, &withHealthy); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if len(diag.Findings) == 0 || !strings.Contains(out, "DB pool exhausted") || !strings.Contains(out, "a long reason") {
		t.Fatalf("the summary lacks the findings or the healthy statement:\n%s", out)
	}
	if !strings.Contains(out, "  THRESHOLDS ") || !strings.Contains(out, "failed ones included") {
		t.Errorf("the THRESHOLDS header is not on one line, or the observed text was cut:\n%s", out)
	}
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
}

// TestEveryRequestFailedIsSaidPlainly: a run in which no request succeeded
// says so in words, and without thresholds says why it still exits 0.
func TestEveryRequestFailedIsSaidPlainly(t *testing.T) {
	for _, tc := range []struct {
		name       string
		thresholds bool
		want, not  string
	}{
		{"with thresholds", true, "ALL FAILED: every one of the 60 requests failed.", "No thresholds"},
		{"without thresholds", false, "ALL FAILED: every one of the 60 requests failed. No thresholds were set, so the exit code is still 0", "PASS"},
	} {
		in := deadRun(t)
		if !tc.thresholds {
			in.Thresholds, in.Results = nil, nil
		}
		var b bytes.Buffer
		if err := WriteText(&b, in); err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(b.String()), " ")
		if !strings.Contains(flat, tc.want) || strings.Contains(flat, tc.not) {
			t.Errorf("%s: want %q and not %q:\n%s", tc.name, tc.want, tc.not, b.String())
		}
	}
	if got := allFailedText(1, units.Requests, true); got != "ALL FAILED: the one request failed." {
		t.Errorf("one request: %q", got)
	}
}

// longNamesRun is a run of two scenarios whose endpoints have names far
// wider than a terminal, one of them failing with a long message, with a
// check and a threshold on the longest.
func longNamesRun(t *testing.T) (in *Input, names []string) {
	t.Helper()
	long := "GET /" + strings.Repeat("segment/", 18) + "end-of-the-150-char-path"
	orgs := "GET /api/v1/organisations/{orgId}/projects/{projectId}/environments/{envId}/deployments"
	names = []string{long, orgs, "GET /x"}
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "arrival-rate"}, {Name: "deploy", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: long, Method: "GET"}, {Scenario: 1, Name: orgs, Method: "GET"}, {Scenario: 1, Name: "GET /x", Method: "GET"}},
		Checks:    []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: "status is 200"}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range 90 {
		r := sample.Request{Endpoint: int32(i % 3), End: time.Second + time.Duration(i)*time.Millisecond, Duration: time.Duration(1+i) * time.Millisecond}
		if i%3 == 1 && i < 30 {
			r.Kind, r.Err = sample.HTTP5xx, "503 Service Unavailable: "+strings.Repeat("the upstream deployment service said no ", 4)
		}
		sink.Request(&r)
		if i%3 == 0 {
			sink.Check(0, r.End, true)
		}
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.Add(rec.Collect(1))
	run.SetElapsed(2 * time.Second)
	th, err := threshold.New(`http_req_duration{endpoint:"`+long+`"}`, "p(95)<500ms")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "127.0.0.1-" + strings.ReplaceAll(long[5:], "/", "-"), Status: "completed", Version: "test", Start: start,
		End: start.Add(2 * time.Second), Run: run, Thresholds: []threshold.Threshold{th}, Results: []threshold.Result{run.Evaluate(&th)}}, names
}

// TestTablesFitTerminalWithLongNames: the summary's tables (endpoints,
// failures, checks, thresholds) and its heading keep every line within
// units.Columns when endpoint names are 150 characters long, cutting names
// in the middle with "…" and never a figure.
func TestTablesFitTerminalWithLongNames(t *testing.T) {
	in, names := longNamesRun(t)
	var b bytes.Buffer
	if err := WriteText(&b, in); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	stats, all := endpointTable(in.Run)
	for i, s := range stats { // each name, whole or cut at both ends, above or beside its figures, all whole
		label := endpointLabel(in.Run, i)
		head, tail := label[:10], label[len(label)-10:]
		row := -1
		for k, line := range lines {
			if strings.Contains(line, head) && strings.Contains(line, tail) {
				row = k
				break
			}
		}
		if row < 0 {
			t.Errorf("no line names %q (nor its ends)", label)
			continue
		}
		if len(label) > units.Columns && !strings.Contains(lines[row], "…") {
			t.Errorf("%s: not cut in the middle: %q", names[i], lines[row])
		}
		figures := strings.Join(lines[row:row+2], " ")
		for _, f := range []string{units.Count(s.Requests), units.Percent(s.errorRate()), units.Duration(s.P50), units.Duration(s.P99), units.Duration(s.Max)} {
			if !strings.Contains(figures, " "+f) {
				t.Errorf("%s: figure %q is not whole on its row: %q", names[i], f, figures)
			}
		}
	}
	if all == nil || !strings.Contains(out, "all endpoints") {
		t.Errorf("no all-endpoints row:\n%s", out)
	}
	for _, w := range []string{"FAILURES", "http_5xx", "503 Service", "CHECKS", "THRESHOLDS", "p(95)<500ms", "· completed in 2.00s"} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("the summary:\n%s", out)
	}
}

// TestCompareTextFitsTerminal: every line of compare's terminal tables
// fits units.Columns; a change too thin to test is marked, its reason
// under the table.
func TestCompareTextFitsTerminal(t *testing.T) {
	for _, name := range []string{"compare", "compare-groups", "compare-marks"} {
		var b bytes.Buffer
		if err := WriteCompareText(&b, comparison(t, name)); err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > units.Columns {
				t.Errorf("%s: line %d is %d columns: %q", name, i+1, n, line)
			}
		}
		if name == "compare" && !strings.Contains(b.String(), "¹ not testable: needs 1,000 requests a run") {
			t.Errorf("%s: the reason a change was not tested is not under its table:\n%s", name, b.String())
		}
	}
}

// TestTotalsBreakAfterTheirSeparator: however long the totals, a line of
// them breaks after a "·", so that no line starts with one.
func TestTotalsBreakAfterTheirSeparator(t *testing.T) {
	broke := 0
	for iters := int64(1); iters < 1e15; iters *= 10 { // the totals' widths, column by column
		for _, n := range []int64{0, 9, 999, 99_999, 9_999_999, 999_999_999} {
			in := deadRun(t)
			in.Run.Scenarios[0].Iterations = iters
			in.Run.Endpoints[0].Received, in.Run.Endpoints[0].Sent = n, n/3
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			for i, line := range lines {
				if strings.HasPrefix(strings.TrimSpace(line), "·") {
					t.Errorf("line %d starts with its separator:\n%s\n%s", i+1, lines[i-1], line)
				}
				if strings.HasSuffix(line, " ·") {
					broke++
				}
			}
		}
	}
	if broke == 0 {
		t.Error("no totals line was long enough to break: the test tests nothing")
	}
}
