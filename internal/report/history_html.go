package report

import (
	_ "embed" // the page template and script are embedded with go:embed
	"fmt"
	"io"
	"math"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/units"
	"github.com/loadlens/loadlens/internal/web"
)

//go:embed history.html.tmpl
var historyTemplate string

//go:embed history.js
var historyJS string

// historyView is what the template fills in.
type historyView struct {
	Title, Method string
	Tests         []historyTestView
}

type historyTestView struct {
	Name     string
	Runs     string
	Capacity string // the newest capacity search's outcome; "" when none
	Shifts   []string
	Series   []historySeriesView
}

type historySeriesView struct {
	Index    int // the series' index in the page's data
	ID       string
	Shape    string
	Runs     []historyRunView // newest first
	Changes  []historyChangeView
	NoChange string // over which runs none was found, when none was
	LeftOut  int    // runs left out of the analysis, ringed on the charts
}

type historyRunView struct {
	ID, Started, Result, RPS, Errors, Findings, Capacity, Tags, Link string
}

type historyChangeView struct {
	Text  string
	Worse bool
}

// historySeriesData is one series for the page's script: per run, its
// start, labels and link; per endpoint, each figure (null where none) and
// its change points.
type historySeriesData struct {
	Runs      []historyRunData      `json:"runs"`
	Endpoints []historyEndpointData `json:"endpoints"`
}

type historyRunData struct {
	ID      string `json:"id"`
	Started string `json:"started"`
	Stamp   string `json:"stamp"` // the start to the second, for axis labels of runs within a minute
	Tags    string `json:"tags"`
	Link    string `json:"link"` // "" when the run's report is not at hand
	Result  string `json:"result"`
	// LeftOut: the run did not complete or its generator disturbed it, so
	// the change points were found without it.
	LeftOut bool `json:"leftOut"`
}

type historyEndpointData struct {
	Name    string                `json:"name"`
	Figures map[string][]*float64 `json:"figures"` // p50, p95, p99 in ms; rps; errors as a fraction
	Changes []historyMark         `json:"changes"`
}

type historyMark struct {
	At     int    `json:"at"`
	Figure string `json:"figure"`
	Worse  bool   `json:"worse"`
	Text   string `json:"text"`
}

// WriteHistoryHTML writes history.html: per test and load shape, each
// endpoint's figures over its runs as charts, change points marked, every
// point linked to its run's report.html (links: run key → href; a run
// without one is drawn but not linked), labels on hover. Self-contained,
// in web's shell, as every page.
func WriteHistoryHTML(w io.Writer, tests []*history.Test, links map[string]string, m history.Method) error {
	v := historyView{Title: "Run history", Method: MethodText(m)}
	if len(tests) == 1 {
		v.Title = "Run history · " + tests[0].Name
	}
	var data []historySeriesData
	for _, t := range tests {
		tv := historyTestView{Name: t.Name, Runs: units.CountOf(int64(t.Runs), "run", "runs")}
		if c := t.Capacity; c != nil {
			tv.Capacity = fmt.Sprintf("Capacity: %s in the newest search (%s, %s).", capacityLong(c), c.ID, c.Start.Local().Format(historyStarted))
		}
		for _, sh := range t.Shifts {
			tv.Shifts = append(tv.Shifts, fmt.Sprintf("The load shape changed at %s (%s): from %s to %s. Runs of different loads are never compared.",
				sh.Run.ID, sh.Run.Start.Local().Format(historyStarted), sh.From, sh.To))
		}
		for i := len(t.Series) - 1; i >= 0; i-- { // the current shape first
			s := t.Series[i]
			tv.Series = append(tv.Series, seriesView(s, len(data), links, m))
			data = append(data, seriesData(s, links))
		}
		v.Tests = append(v.Tests, tv)
	}
	_, err := web.Render(w, web.Page{Title: v.Title + " · loadlens", Footer: "Made by loadlens. Charts by uPlot " + web.UPlotVersion + ".",
		Template: historyTemplate, View: v, Data: map[string]any{"series": data}, Script: historyJS})
	if err != nil {
		return fmt.Errorf("history.html: %w", err)
	}
	return nil
}

func seriesView(s *history.Series, index int, links map[string]string, m history.Method) historySeriesView {
	sv := historySeriesView{Index: index, ID: s.ShapeID, Shape: s.Shape}
	for i := len(s.Runs) - 1; i >= 0; i-- {
		r := &s.Runs[i]
		rv := historyRunView{ID: r.ID, Started: r.Start.Local().Format(historyStarted), Result: historyResult(r),
			RPS: units.Number(r.RPS), Errors: units.Percent(r.ErrorRate), Findings: units.Count(int64(r.Findings)), Capacity: "-",
			Tags: history.TagText(r.Tags), Link: links[r.Key()]}
		if r.Capacity != nil { // a search: its outcome, not one run's figures
			rv.RPS, rv.Errors, rv.Findings, rv.Capacity = "-", "-", "-", capacityLong(r)
		}
		sv.Runs = append(sv.Runs, rv)
	}
	for _, c := range s.Changes {
		sv.Changes = append(sv.Changes, historyChangeView{Text: ChangeText(s, c), Worse: c.Worse})
	}
	if len(s.Changes) == 0 {
		sv.NoChange = NoChangeText(s, m)
	}
	for i := range s.Runs {
		if !s.Runs[i].Analysed() {
			sv.LeftOut++
		}
	}
	return sv
}

func seriesData(s *history.Series, links map[string]string) historySeriesData {
	d := historySeriesData{Endpoints: []historyEndpointData{}} // a series of searches has none: [] for the script, not null
	for i := range s.Runs {
		r := &s.Runs[i]
		d.Runs = append(d.Runs, historyRunData{ID: r.ID, Started: r.Start.Local().Format(historyStarted), Stamp: r.Start.Local().Format("01-02 15:04:05"),
			Tags: history.TagText(r.Tags), Link: links[r.Key()], Result: historyResult(r), LeftOut: !r.Analysed()})
	}
	for _, ep := range s.Endpoints {
		e := historyEndpointData{Name: ep, Figures: map[string][]*float64{}, Changes: []historyMark{}}
		for _, f := range history.Figures {
			e.Figures[f.String()] = nullable(s.Shown(ep, f))
		}
		for _, c := range s.Changes {
			if c.Endpoint == ep {
				e.Changes = append(e.Changes, historyMark{At: c.At, Figure: c.Figure.String(), Worse: c.Worse, Text: ChangeText(s, c)})
			}
		}
		d.Endpoints = append(d.Endpoints, e)
	}
	return d
}

// capacityLong is a search's highest sustainable rate in both units,
// "41.2 iterations/s (82.4 req/s)", or "none held the SLO".
func capacityLong(r *history.Run) string {
	if r.Capacity == nil || r.Capacity.Highest <= 0 {
		return "none held the SLO"
	}
	return units.Rate(r.Capacity.Highest, "iterations") + " (" + units.Rate(r.Capacity.HighestRequests, "req") + ")"
}

// nullable turns NaN (no figure) into JSON null.
func nullable(xs []float64) []*float64 {
	out := make([]*float64, len(xs))
	for i := range xs {
		if !math.IsNaN(xs[i]) {
			out[i] = &xs[i]
		}
	}
	return out
}
