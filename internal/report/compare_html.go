package report

import (
	_ "embed" // the page template and script are embedded with go:embed
	"fmt"
	"io"
	"math"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/web"
)

//go:embed compare.html.tmpl
var compareTemplate string

//go:embed compare.js
var compareJS string

// pageSeries is one run's per-second figures as columns, the way uPlot
// takes them; latencies are null in seconds without requests.
type compareSeries struct {
	Name       string     `json:"name"`
	Letter     string     `json:"letter"`
	First      int        `json:"first"`
	Last       int        `json:"last"`
	Comparable bool       `json:"comparable"`
	T          []int      `json:"t"`
	Requests   []*float64 `json:"rq"` // per second: a last second cut short over the share it lasted (perSecond)
	Failed     []*float64 `json:"er"`
	Load       []*float64 `json:"load"` // VUs, or offered req/s (per second, as rq)
	P50        []*float64 `json:"p50"`
	P95        []*float64 `json:"p95"`
	P99        []*float64 `json:"p99"`
}

// pageView is what the template fills in.
type compareView struct {
	Runs     []compareRun
	Verdicts []string // compareVerdicts' sentences
	Tables   []compareTable
	Legend   []string
	Scaling  []compare.Scaling
	Notes    []string
	Gates    []compareGate
}

// compareGate is one regression gate's verdict, as the terminal marks it.
type compareGate struct {
	Mark, Class, Expr, Run, Reason string
}

type compareRun struct {
	Letter, Name, Model, Part, Note string
	Baseline, Comparable            bool
}

type compareTable struct {
	Name  string
	Head  []string
	Lines [][]compareCell
}

type compareCell struct {
	Text  string
	Class string // "worse", "better" or ""
}

// WriteCompareHTML writes a comparison as one self-contained page: the tables,
// and the runs' time series overlaid, with the compared seconds shaded.
// Scripts and styles are inline and a Content-Security-Policy lets only
// them run; names from the runs are escaped by html/template, and the
// embedded data is JSON with <, > and & escaped.
func WriteCompareHTML(w io.Writer, r *compare.Report) error {
	v := compareView{Legend: legend(r), Scaling: r.Scaling, Notes: r.Notes, Gates: gateViews(r.Gates), Verdicts: compareVerdicts(r)}
	for _, ri := range r.Runs {
		v.Runs = append(v.Runs, compareRun{Letter: ri.Label, Name: runName(ri), Model: ri.Model, Part: partText(ri), Note: ri.Note,
			Baseline: ri.Group == 0, Comparable: r.Groups[ri.Group].Comparable})
	}
	for _, row := range r.Rows {
		v.Tables = append(v.Tables, compareHTMLTable(r, row))
	}
	_, err := web.Render(w, web.Page{Title: "Run comparison · loadlens", Footer: "Made by loadlens. Charts by uPlot " + web.UPlotVersion + ".",
		Template: compareTemplate, View: v, Data: comparePageData(r), Script: compareJS})
	if err != nil {
		return fmt.Errorf("compare.html: %w", err)
	}
	return nil
}

// compareHTMLTable lays out a row like the terminal table, marking significant
// changes of groups at the baseline's load as better or worse.
func compareHTMLTable(r *compare.Report, row compare.Row) compareTable {
	cells := tableCells(r, row, nil)
	t := compareTable{Name: row.Name, Head: cells[0]}
	for li, l := range row.Lines {
		text := cells[li+1]
		line := []compareCell{{Text: text[0]}}
		col := 1
		for i, v := range l.Values {
			line = append(line, compareCell{Text: text[col]})
			col++
			if i > 0 {
				class := ""
				if r.Groups[i].Comparable { // at another load, better or worse says little
					class = changeClass(v)
				}
				line = append(line, compareCell{Text: text[col], Class: class})
				col++
			}
		}
		t.Lines = append(t.Lines, line)
	}
	return t
}

// changeClass is "better" or "worse" for a significant change, else "".
func changeClass(v compare.Value) string {
	if v.Verdict == "better" || v.Verdict == "worse" {
		return v.Verdict
	}
	return ""
}

// comparePageData is every run's series for the page's script.
func comparePageData(r *compare.Report) map[string]any {
	runs := make([]compareSeries, len(r.Seconds))
	for i, secs := range r.Seconds {
		ri := r.Runs[i]
		ps := compareSeries{Name: ri.Name, Letter: ri.Label, First: ri.First, Last: ri.Last, Comparable: r.Groups[ri.Group].Comparable}
		load := r.Loads[i]
		for k, s := range secs {
			w := 1.0
			if k == len(secs)-1 && i < len(r.LastCovered) {
				w = r.LastCovered[i]
			}
			ps.T = append(ps.T, s.Sec)
			ps.Requests = append(ps.Requests, perSecond(float64(s.Requests), w))
			ps.Failed = append(ps.Failed, perSecond(float64(s.Failed), w))
			if ri.LoadUnit == "VUs" { // a gauge, not a count in the second
				ps.Load = append(ps.Load, perSecond(load[k], 1))
			} else {
				ps.Load = append(ps.Load, perSecond(load[k], w))
			}
			ps.P50 = append(ps.P50, latency(s.Requests, s.P50.Seconds()))
			ps.P95 = append(ps.P95, latency(s.Requests, s.P95.Seconds()))
			ps.P99 = append(ps.P99, latency(s.Requests, s.P99.Seconds()))
		}
		runs[i] = ps
	}
	return map[string]any{"runs": runs, "loadUnit": r.Runs[0].LoadUnit}
}

// perSecond is n counted over the share w of a second: n itself for a
// whole second, nil for a part one (metrics.MinCovered: its count would
// chart a drop, its count over w a spike).
func perSecond(n, w float64) *float64 {
	if w > 0 && w < metrics.MinCovered {
		return nil
	}
	return &n
}

// latency is a second's latency in milliseconds, or nil without requests.
func latency(requests int64, seconds float64) *float64 {
	if requests == 0 {
		return nil
	}
	v := math.Round(seconds*1e6) / 1000 // to the microsecond
	return &v
}

// gateViews marks each gate as the terminal does: ✓ passed, ✗ failed, ?
// not judged (which fails unless --allow-not-judged, said on the terminal).
func gateViews(results []compare.GateResult) []compareGate {
	var out []compareGate
	for _, g := range results {
		v := compareGate{Mark: "✓", Class: "better", Expr: g.Gate.String(), Run: g.Run, Reason: g.Reason}
		switch {
		case g.Failed:
			v.Mark, v.Class = "✗", "worse"
		case g.NotJudged:
			v.Mark, v.Class = "?", ""
		}
		out = append(out, v)
	}
	return out
}
