package diagnose

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// recordedTraces reads spans the demo shop exported (recorded by
// internal/demo's TestRecordTraces) and joins them to their requests.
func recordedTraces(t *testing.T, file string) []spans.Breakdown {
	t.Helper()
	b, err := os.ReadFile("testdata/traces/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Requests []spans.Request
		Spans    []spans.Span
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	joined, stmts, unmatched := spans.Join(rec.Requests, rec.Spans)
	if unmatched != 0 || len(joined) != len(rec.Requests) {
		t.Fatalf("%s: %d of %d requests joined", file, len(joined), len(rec.Requests))
	}
	return spans.Summarize(joined, stmts)
}

func TestTraceDBTail(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /apps/first-page/{category}", Method: "GET"}}}
	for _, tc := range []struct {
		name, file string
		fires      bool
		title      string
	}{
		// the naive first page ranks the apps with a GROUP BY on every request (case study 1)
		{"the naive first page: its tail is one query", "first-page-naive.json", true, "p95 of GET /apps/first-page/{category} is "},
		// cached product pages: the tail is the service and the network, no query stands out
		{"cached product pages: no query dominates", "products-improved.json", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := recordedTraces(t, tc.file)
			in := Input{Run: metrics.NewRun(layout), Traces: bs}
			var got []Finding
			for _, f := range Diagnose(in) {
				if f.Kind == KindTraceDBTail {
					got = append(got, f)
				}
			}
			if !tc.fires {
				if len(got) > 0 {
					t.Fatalf("fired: %s", Join(got[0].Parts, got[0].Figures, figureText))
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d findings, want 1; tail %+v", len(got), bs[0].Tail)
			}
			f := got[0]
			title := Join(f.Parts, f.Figures, figureText)
			if !strings.HasPrefix(title, tc.title) || !strings.Contains(title, "in one query: SELECT demo_apps") {
				t.Errorf("title %q", title)
			}
			share := f.Figures[3] // the share of the tail's time in the statements named
			if share.Unit != UnitFraction || share.Value < tailShare || share.Value > 1 {
				t.Errorf("share %+v", share)
			}
			// the share is what the tail's parts say: recompute it from the breakdown
			tail := bs[0].Tail
			var db float64
			for _, p := range tail.Parts {
				if p.Kind == spans.PartDB && p.Span == "SELECT demo_apps" {
					db += float64(p.Time)
				}
			}
			if want := db / float64(tail.Duration); share.Value < want-1e-9 || share.Value > want+1e-9 {
				t.Errorf("share %v, the tail's parts give %v", share.Value, want)
			}
			for _, e := range f.Evidence {
				for _, p := range e.Parts {
					if p.Figure < 0 && p.Name == "" && strings.ContainsAny(p.Text, "0123456789") {
						t.Errorf("evidence words state a number: %q", p.Text)
					}
				}
			}
			if len(f.Remedies) == 0 || f.Severity != Warning {
				t.Errorf("severity %v, %d remedies", f.Severity, len(f.Remedies))
			}
		})
	}
}

// TestTraceDBTailNeedsEnoughTraces: a handful of traces says nothing.
func TestTraceDBTailNeedsEnoughTraces(t *testing.T) {
	bs := recordedTraces(t, "first-page-naive.json")
	bs[0].Traces = tailMinJoined - 1
	for _, f := range Diagnose(Input{Traces: bs}) {
		if f.Kind == KindTraceDBTail {
			t.Fatalf("fired on %d traces", bs[0].Traces)
		}
	}
}
