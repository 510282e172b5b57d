package report

import (
	_ "embed" // the page template and script are embedded with go:embed
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/units"
	"github.com/loadlens/loadlens/internal/web"
)

//go:embed capacity.html.tmpl
var capacityTemplate string

//go:embed capacity.js
var capacityJS string

// capacityPoint is one judged step as the page's charts take it, sorted by
// rate: the rate offered in iterations/s, on the x axis; what it offered and
// what was done in the unit the test counts (req/s, calls/s, sessions/s:
// Config.Unit), on the throughput chart.
type capacityPoint struct {
	Rate       float64  `json:"rate"`
	Offered    float64  `json:"offered"` // per second of the test's unit: Rate × requests per iteration
	Throughput float64  `json:"done"`
	P95        *float64 `json:"p95"` // milliseconds; null without requests
	P99        *float64 `json:"p99"`
	Passed     bool     `json:"pass"`
	Trusted    bool     `json:"trusted"` // Record.Clean: drawn filled
	// Text is every figure as the table writes it (internal/units), for the
	// charts' legend: one rounding for one figure on the whole page.
	Text capacityPointText `json:"text"`
}

// capacityPointText is a point's figures as text.
type capacityPointText struct {
	Rate    string `json:"rate"`
	Offered string `json:"offered"`
	Done    string `json:"done"`
	P95     string `json:"p95"`
	P99     string `json:"p99"`
}

type capacityData struct {
	Points  []capacityPoint `json:"points"`
	Retried []capacityPoint `json:"retried"` // runs not judged because the host was busy, drawn as grey rings
	SLO     float64         `json:"slo"`     // the p95 limit in ms; 0: none
	Knee    float64         `json:"knee"`    // the knee's rate; 0: none
	Highest float64         `json:"highest"` // the highest sustainable rate; 0: none
	// KneeText and HighestText are the marks' rates as the cards write them.
	KneeText    string `json:"knee_text"`
	HighestText string `json:"highest_text"`
	// PerSecond is the unit of the throughput chart: "req/s", "calls/s".
	PerSecond string `json:"per_second"`
}

type capacityView struct {
	Name     string
	PerIter  string // "2 requests" one iteration sends
	Unit     string // what the target completes: "requests", "calls", "sessions"
	Rate     string // its rate: "req/s", "calls/s"
	Latency  string // the metric the steps' p95 and p99 are of, when not every request's duration: "grpc_req_duration"
	Headline []capacityFact
	Warning  string         // the outcome could not be determined, and why
	Notes    []capacityFact // the USL fit, retries, why the search stopped
	Steps    []capacityStep
}

type capacityFact struct{ Label, Value, Sub string }

type capacityStep struct {
	N, Phase, Rate, Offered, Done, P95, P99, Errors, Dropped, CPU, Lag, Host, Verdict string
	Passed, Retried                                                                   bool
}

// WriteCapacityHTML writes a capacity search as one self-contained page: throughput and
// p95/p99 against the offered rate, with the SLO line, the knee and the
// highest sustainable rate marked, and every run of a step. slo is the
// test's p95 limit (0 when it has none).
func WriteCapacityHTML(w io.Writer, r capacity.Result, name string, slo time.Duration) error {
	per, u := requestsPerIteration(r), r.Config.Counts()
	data := capacityData{SLO: ms(slo), Highest: r.Highest, Points: []capacityPoint{}, Retried: []capacityPoint{},
		HighestText: capacity.Iterations(r.Highest), PerSecond: u.PerSecond()}
	if r.Knee != nil {
		data.Knee, data.KneeText = r.Knee.Rate, capacity.Iterations(r.Knee.Rate)
	}
	for _, s := range r.Steps {
		p := capacityPoint{Rate: s.Rate, Offered: s.Rate * per, Throughput: s.Throughput, Passed: s.Passed, Trusted: s.Clean(),
			Text: capacityPointText{Rate: capacity.Iterations(s.Rate), Offered: u.Rate(s.Rate * per), Done: u.Rate(s.Throughput), P95: "-", P99: "-"}}
		if s.Throughput > 0 {
			p95, p99 := ms(s.P95), ms(s.P99)
			p.P95, p.P99 = &p95, &p99
			p.Text.P95, p.Text.P99 = units.Duration(s.P95), units.Duration(s.P99)
		}
		if s.Retried {
			data.Retried = append(data.Retried, p)
		} else {
			data.Points = append(data.Points, p)
		}
	}
	sort.SliceStable(data.Points, func(i, j int) bool { return data.Points[i].Rate < data.Points[j].Rate })
	v := capacityView{Name: name, PerIter: u.Quantity(per), Unit: u.Many, Rate: u.PerSecond(), Headline: capacityHeadline(r)}
	if l := r.Config.Latency; l != "" && l != "http_req_duration" {
		v.Latency = l
	}
	if r.Stop == capacity.HostBusy || r.Unjudged > 0 {
		v.Warning = "Highest sustainable rate " + highestText(r) + "."
	}
	v.Notes = append(v.Notes, capacityFact{Label: "Scalability (USL fit)", Value: uslText(r)})
	if r.Retries > 0 {
		v.Notes = append(v.Notes, capacityFact{Label: "Retried", Value: retriesText(r)})
	}
	v.Notes = append(v.Notes, capacityFact{Label: "Stopped", Value: string(r.Stop) + ": " + r.StopDetail})
	if r.Thin != "" {
		v.Notes = append(v.Notes, capacityFact{Label: "Thin steps", Value: r.Thin})
	}
	for i, s := range r.Steps {
		v.Steps = append(v.Steps, capacityStep{N: fmt.Sprint(i + 1), Phase: phaseText(s), Rate: units.Number(s.Rate), Offered: units.Number(s.Rate * per), Done: units.Number(s.Throughput),
			P95: units.Duration(s.P95), P99: units.Duration(s.P99), Errors: units.Percent(s.ErrorRate), Dropped: units.Count(s.Dropped),
			CPU: units.Share(s.GeneratorCPU), Lag: units.Duration(s.LagP99), Host: hostText(s.StepResult),
			Verdict: verdictText(s, ": "), Passed: s.Passed, Retried: s.Retried})
	}
	_, err := web.Render(w, web.Page{Title: name + " · capacity · loadlens", Footer: "Made by loadlens. Charts by uPlot " + web.UPlotVersion + ".",
		Template: capacityTemplate, View: v, Data: data, Script: capacityJS})
	if err != nil {
		return fmt.Errorf("capacity.html: %w", err)
	}
	return nil
}

// capacityHeadline is the page's top figures.
func capacityHeadline(r capacity.Result) []capacityFact {
	highest := capacityFact{Label: "Highest sustainable rate", Value: "none found"}
	inReq := r.Config.Counts().Rate(r.Highest * requestsPerIteration(r))
	switch {
	case r.Stop == capacity.HostBusy:
		highest.Value, highest.Sub = "not determined", busyHostText(r)
		if r.Highest > 0 {
			highest.Sub += fmt.Sprintf("; the SLO held up to %s (%s)", capacity.Iterations(r.Highest), inReq)
		}
	case r.Unjudged > 0 && r.Highest > 0:
		highest.Value, highest.Sub = "≥ "+capacity.Iterations(r.Highest), inReq+"; not determined: "+capacity.Iterations(r.Unjudged)+" above it was not judged: "+unjudgedHost(r)
	case r.Unjudged > 0:
		highest.Value, highest.Sub = "not determined", capacity.Iterations(r.Unjudged)+" was not judged: "+unjudgedHost(r)
	case r.Highest == 0 && r.LowestFailing == 0 && r.Stop != capacity.NothingPassed && r.Stop != capacity.TargetFailed:
		highest.Value, highest.Sub = "not determined", "no step could be judged ("+string(r.Stop)+")"
	case r.Highest > 0 && r.Stop == capacity.GeneratorSaturated:
		highest.Value, highest.Sub = "≥ "+capacity.Iterations(r.Highest), inReq+"; the generator dropped iterations past it"
	case r.Highest > 0 && r.LowestFailing == 0:
		highest.Value, highest.Sub = "≥ "+capacity.Iterations(r.Highest), inReq+"; no step failed the SLO"
	case r.Highest > 0:
		highest.Value, highest.Sub = capacity.Iterations(r.Highest), inReq
	}
	facts := []capacityFact{highest}
	if r.LowestFailing > 0 {
		facts = append(facts, capacityFact{Label: "First failing rate", Value: capacity.Iterations(r.LowestFailing)})
	}
	if r.Knee != nil {
		facts = append(facts, capacityFact{Label: "Knee", Value: capacity.Iterations(r.Knee.Rate)})
	}
	if f := r.USL; f != nil && f.PeakInReach && !math.IsInf(f.PeakThroughput, 0) {
		label := "USL peak"
		if math.IsInf(f.PeakConcurrency, 1) {
			label = "USL ceiling" // κ = 0: throughput approaches λ/σ and never falls
		}
		facts = append(facts, capacityFact{Label: label, Value: r.Config.Counts().Rate(f.PeakThroughput), Sub: "R² " + units.Number(f.R2) + " over " + units.CountOf(int64(f.Points), "step", "steps")})
	}
	if r.Retries > 0 {
		facts = append(facts, capacityFact{Label: "Retried runs", Value: units.Count(int64(r.Retries)), Sub: "the host was busy"})
	}
	facts = append(facts, capacityFact{Label: "Stopped", Value: string(r.Stop)})
	return facts
}
