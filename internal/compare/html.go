package compare

import (
	_ "embed" // the page template and script are embedded with go:embed
	"fmt"
	"io"

	"github.com/loadlens/loadlens/internal/web"
)

//go:embed compare.html.tmpl
var pageTemplate string

//go:embed compare.js
var pageJS string

// pageSeries is one run's per-second figures as columns, the way uPlot
// takes them; latencies are null in seconds without requests.
type pageSeries struct {
	Name       string     `json:"name"`
	Letter     string     `json:"letter"`
	First      int        `json:"first"`
	Last       int        `json:"last"`
	Comparable bool       `json:"comparable"`
	T          []int      `json:"t"`
	Requests   []int64    `json:"rq"`
	Failed     []int64    `json:"er"`
	Load       []float64  `json:"load"`
	P50        []*float64 `json:"p50"`
	P95        []*float64 `json:"p95"`
	P99        []*float64 `json:"p99"`
}

// pageView is what the template fills in.
type pageView struct {
	Runs    []pageRun
	Tables  []pageTable
	Legend  []string
	Scaling []Scaling
	Notes   []string
}

type pageRun struct {
	Letter, Name, Model, Part, Note string
	Baseline, Comparable            bool
}

type pageTable struct {
	Name  string
	Head  []string
	Lines [][]pageCell
}

type pageCell struct {
	Text  string
	Class string // "worse", "better" or ""
}

// WriteHTML writes the comparison as one self-contained page: the tables,
// and the runs' time series overlaid, with the compared seconds shaded.
// Scripts and styles are inline and a Content-Security-Policy lets only
// them run; names from the runs are escaped by html/template, and the
// embedded data is JSON with <, > and & escaped.
func WriteHTML(w io.Writer, r *Report) error {
	v := pageView{Legend: legend(r), Scaling: r.Scaling, Notes: r.Notes}
	for _, ri := range r.Runs {
		v.Runs = append(v.Runs, pageRun{Letter: ri.Label, Name: ri.Name, Model: ri.Model, Part: partText(ri), Note: ri.Note,
			Baseline: ri.Group == 0, Comparable: r.Groups[ri.Group].Comparable})
	}
	for _, row := range r.Rows {
		v.Tables = append(v.Tables, htmlTable(r, row))
	}
	_, err := web.Render(w, web.Page{Title: "Run comparison · loadlens", Footer: "Made by loadlens. Charts by uPlot " + web.UPlotVersion + ".",
		Template: pageTemplate, View: v, Data: pageData(r), Script: pageJS})
	if err != nil {
		return fmt.Errorf("compare.html: %w", err)
	}
	return nil
}

// htmlTable lays out a row like the terminal table, marking significant
// changes of groups at the baseline's load as better or worse.
func htmlTable(r *Report, row Row) pageTable {
	cells := tableCells(r, row)
	t := pageTable{Name: row.Name, Head: cells[0]}
	for li, l := range row.Lines {
		text := cells[li+1]
		line := []pageCell{{Text: text[0]}}
		col := 1
		for i, v := range l.Values {
			line = append(line, pageCell{Text: text[col]})
			col++
			if i > 0 {
				class := ""
				if r.Groups[i].Comparable { // at another load, better or worse says little
					class = changeClass(v)
				}
				line = append(line, pageCell{Text: text[col], Class: class})
				col++
			}
		}
		t.Lines = append(t.Lines, line)
	}
	return t
}

// changeClass is "better" or "worse" for a significant change, else "".
func changeClass(v Value) string {
	if v.Verdict == "better" || v.Verdict == "worse" {
		return v.Verdict
	}
	return ""
}

// pageData is every run's series for the page's script.
func pageData(r *Report) map[string]any {
	runs := make([]pageSeries, len(r.series))
	for i, secs := range r.series {
		ri := r.Runs[i]
		ps := pageSeries{Name: ri.Name, Letter: ri.Label, First: ri.First, Last: ri.Last, Comparable: r.Groups[ri.Group].Comparable}
		load := r.load[i]
		for k, s := range secs {
			ps.T = append(ps.T, s.Sec)
			ps.Requests = append(ps.Requests, s.Requests)
			ps.Failed = append(ps.Failed, s.Failed)
			ps.Load = append(ps.Load, load[k])
			ps.P50 = append(ps.P50, latency(s.Requests, s.P50.Seconds()))
			ps.P95 = append(ps.P95, latency(s.Requests, s.P95.Seconds()))
			ps.P99 = append(ps.P99, latency(s.Requests, s.P99.Seconds()))
		}
		runs[i] = ps
	}
	return map[string]any{"runs": runs, "loadUnit": r.Runs[0].LoadUnit}
}

// latency is a second's latency in milliseconds, or nil without requests.
func latency(requests int64, seconds float64) *float64 {
	if requests == 0 {
		return nil
	}
	v := roundTo(seconds*1000, 3)
	return &v
}
