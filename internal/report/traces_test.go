package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
	"github.com/loadlens/loadlens/internal/units"
)

// tracesInput is a run of two endpoints whose first has a trace breakdown.
func tracesInput(t *testing.T, ui string) *Input {
	in := fixture(t)
	id := sample.TraceID{0xab, 15: 1}
	var joined []spans.Trace
	for i := range 40 {
		d := time.Duration(10+i) * time.Millisecond
		joined = append(joined, spans.Trace{Request: spans.Request{Trace: sample.TraceID{byte(i), 15: 2}, Sec: i / 10, Duration: d}, Server: d,
			Parts: []spans.Part{{Kind: spans.PartDB, Name: "SELECT <b>", Span: "SELECT demo_apps", Time: d / 2}, {Kind: spans.PartService, Time: d - d/2}}})
	}
	n := len(in.Run.Layout.Endpoints)
	tr := &Traces{UI: ui, Slowest: make([][]spans.Kept, n), Failed: make([][]spans.Kept, n),
		Breakdowns: spans.Summarize(joined, []spans.Statement{{Kind: spans.PartDB, Name: "SELECT <b>", Span: "SELECT demo_apps", Calls: 40, Total: time.Second, Max: 49 * time.Millisecond}}),
		Stats:      spans.Stats{Receiver: true, Sampled: 50, Unjoined: 10, Spans: 80, Exports: 4}}
	tr.Slowest[0] = []spans.Kept{{Trace: id, Sampled: true, Sec: 3, Duration: 49 * time.Millisecond, Status: 200}}
	tr.Failed[n-1] = []spans.Kept{{Endpoint: int32(n - 1), Trace: id, Sec: 1, Duration: time.Second, Status: 503, Failed: true, Err: "503 <i>unavailable</i>"}}
	in.Traces = tr
	return in
}

func TestTracesInTheReport(t *testing.T) {
	for _, tc := range []struct {
		name, ui, link string
	}{
		{"with a trace UI", "http://tempo.local:3200/trace/{trace_id}?x=1", `href="http://tempo.local:3200/trace/ab000000000000000000000000000001?x=1"`},
		{"a template from an edited run.db is never linked", "javascript:alert(1)//{trace_id}", ""},
		{"without one", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tracesInput(t, tc.ui)
			var html bytes.Buffer
			if err := WriteHTML(&html, in); err != nil {
				t.Fatal(err)
			}
			page := html.String()
			for _, want := range []string{`id="traces"`, "40 of 50 sampled requests were joined", "<svg class=\"trace-chart\"",
				"SELECT &lt;b&gt;", "503 &lt;i&gt;unavailable&lt;/i&gt;", "ab000000000000000000000000000001", "Slow tail (≥ p95)"} {
				if !strings.Contains(page, want) {
					t.Errorf("the report lacks %q", want)
				}
			}
			if strings.Contains(page, "SELECT <b>") || strings.Contains(page, "javascript:") && strings.Contains(page, `href="javascript`) {
				t.Errorf("unescaped text or a javascript link in the page")
			}
			if tc.link != "" && !strings.Contains(page, tc.link) {
				t.Errorf("no link %s", tc.link)
			}
			if tc.link == "" && strings.Contains(page, `href="http://tempo`) {
				t.Errorf("a link without a usable template")
			}
			js, err := SummaryJSON(in)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(js), `"trace_id": "ab000000000000000000000000000001"`) ||
				(tc.link != "" && !strings.Contains(string(js), `"link": "http://tempo.local:3200/trace/ab000000000000000000000000000001?x=1"`)) {
				t.Errorf("summary.json lacks the kept trace ids or their links")
			}
			var brief strings.Builder
			if err := WriteBrief(&brief, in); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(brief.String(), "≥ p95 of browse · GET /apps/first-page: ") || !strings.Contains(brief.String(), "db SELECT demo_apps 50%") {
				t.Errorf("the brief lacks the slow tail's parts:\n%s", brief.String())
			}
			var text strings.Builder
			if err := WriteText(&text, in); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"WHERE THE TIME WENT  (40 of 50 sampled requests", "≥ p95", "db SELECT demo_apps 50%",
				"db SELECT demo_apps: 40 calls, 1.00s in all, at most 49.0ms", "49.0ms  ab000000000000000000000000000001"} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("the summary lacks %q:\n%s", want, text.String())
				}
			}
		})
	}
}

// TestUnsampledFailuresStayOutOfTheSummary: a test that traces nothing
// keeps its failures' trace ids in run.db and the report, not the summary.
func TestUnsampledFailuresStayOutOfTheSummary(t *testing.T) {
	in := fixture(t)
	n := len(in.Run.Layout.Endpoints)
	in.Traces = &Traces{Slowest: make([][]spans.Kept, n), Failed: make([][]spans.Kept, n)}
	in.Traces.Failed[0] = []spans.Kept{{Trace: sample.TraceID{1}, Failed: true, Err: "timeout"}}
	var text strings.Builder
	WriteText(&text, in)
	if strings.Contains(text.String(), "TRACES") {
		t.Errorf("the summary lists unsampled failures' trace ids:\n%s", text.String())
	}
	var html bytes.Buffer
	WriteHTML(&html, in)
	if !strings.Contains(html.String(), "01000000000000000000000000000000") {
		t.Error("the report lacks the failure's trace id")
	}
}

func TestNoTracesNoSection(t *testing.T) {
	in := fixture(t)
	var html bytes.Buffer
	if err := WriteHTML(&html, in); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	WriteText(&text, in)
	if strings.Contains(html.String(), `id="traces"`) || strings.Contains(text.String(), "TRACES") {
		t.Error("a run without traces shows a traces section")
	}
}

func TestWhereTheTimeWentFitsTheTerminal(t *testing.T) {
	in := tracesInput(t, "")
	long := "SELECT demo_products_with_a_rather_long_table_name_from_an_orm"
	var joined []spans.Trace
	for i := range 40 {
		d := time.Duration(10+i) * time.Millisecond
		joined = append(joined, spans.Trace{Request: spans.Request{Trace: sample.TraceID{byte(i), 15: 3}, Sec: i / 10, Duration: d}, Server: d,
			Parts: []spans.Part{{Kind: spans.PartDB, Name: long, Span: long, Time: d / 3}, {Kind: spans.PartCache, Name: "GET", Span: "GET product:<id>", Time: d / 3},
				{Kind: spans.PartService, Time: d / 6}}})
	}
	in.Traces.Breakdowns = spans.Summarize(joined, []spans.Statement{{Kind: spans.PartDB, Name: long, Span: long + "_and_more", Calls: 40, Total: time.Second, Max: 49 * time.Millisecond}})
	var text strings.Builder
	if err := WriteText(&text, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "WHERE THE TIME WENT") {
		t.Fatalf("no breakdown:\n%s", text.String())
	}
	for _, l := range strings.Split(text.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > units.Columns {
			t.Errorf("a %d-column line: %s", n, l)
		}
	}
}
