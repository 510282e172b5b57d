package capacity

import (
	"bytes"
	_ "embed" // the page template and script are embedded with go:embed
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/web"
)

//go:embed capacity.html.tmpl
var pageTemplate string

//go:embed capacity.js
var pageJS string

// pagePoint is one step as the page's charts take it, sorted by rate.
type pagePoint struct {
	Rate       float64  `json:"rate"`
	Throughput float64  `json:"done"`
	P95        *float64 `json:"p95"` // milliseconds; null without requests
	P99        *float64 `json:"p99"`
	Passed     bool     `json:"pass"`
	Trusted    bool     `json:"trusted"`
}

type pageData struct {
	Points  []pagePoint `json:"points"`
	SLO     float64     `json:"slo"`     // the p95 limit in ms; 0: none
	Knee    float64     `json:"knee"`    // the knee's rate; 0: none
	Highest float64     `json:"highest"` // the highest sustainable rate; 0: none
}

type pageView struct {
	CSP          string
	CSS          template.CSS
	Name         string
	Headline     []pageFact
	Steps        []pageStep
	Data         template.JS
	Scripts      []template.JS
	UPlotVersion string
	UPlotLicense string
}

type pageFact struct{ Label, Value string }

type pageStep struct {
	N, Phase, Rate, Done, P95, P99, Errors, Dropped, CPU, Lag, Verdict string
	Passed                                                             bool
}

// WriteHTML writes the search as one self-contained page: throughput and
// p95/p99 against the offered rate, with the SLO line, the knee and the
// highest sustainable rate marked, and every step. slo is the test's p95
// limit (0 when it has none).
func WriteHTML(w io.Writer, r Result, name string, slo time.Duration) error {
	tmpl, err := template.New("capacity").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("capacity.html: template: %w", err)
	}
	data := pageData{SLO: ms(slo), Highest: r.Highest}
	if r.Knee != nil {
		data.Knee = r.Knee.Rate
	}
	for _, s := range r.Steps {
		p := pagePoint{Rate: s.Rate, Throughput: s.Throughput, Passed: s.Passed, Trusted: s.Saturation == ""}
		if s.Throughput > 0 {
			p95, p99 := ms(s.P95), ms(s.P99)
			p.P95, p.P99 = &p95, &p99
		}
		data.Points = append(data.Points, p)
	}
	sort.SliceStable(data.Points, func(i, j int) bool { return data.Points[i].Rate < data.Points[j].Rate })
	var js bytes.Buffer
	enc := json.NewEncoder(&js) // escapes <, > and & so the data cannot end its script element
	if err := enc.Encode(data); err != nil {
		return fmt.Errorf("capacity.html: %w", err)
	}
	var summary strings.Builder
	if err := Render(&summary, r); err != nil {
		return err
	}
	v := pageView{CSS: template.CSS(web.CSS()), Name: name, Data: template.JS(js.String()),
		UPlotVersion: web.UPlotVersion, UPlotLicense: web.UPlotLicense(), Headline: headline(r)}
	v.Scripts, v.CSP = web.PageScripts(false, pageJS)
	for i, s := range r.Steps {
		verdict := "pass"
		if !s.Passed {
			verdict = "FAIL: " + strings.Join(s.FailedThresholds, "; ")
		}
		if s.Saturation != "" {
			verdict += " (generator: " + s.Saturation + ")"
		}
		v.Steps = append(v.Steps, pageStep{N: fmt.Sprint(i + 1), Phase: string(s.Phase), Rate: num(s.Rate), Done: num(s.Throughput),
			P95: dur(s.P95), P99: dur(s.P99), Errors: fmt.Sprintf("%.2f%%", 100*s.ErrorRate), Dropped: fmt.Sprint(s.Dropped),
			CPU: fmt.Sprintf("%.0f%%", 100*s.GeneratorCPU), Lag: dur(s.LagP99), Verdict: verdict, Passed: s.Passed})
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return fmt.Errorf("capacity.html: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// headline is the page's top figures.
func headline(r Result) []pageFact {
	highest := "none found"
	switch {
	case r.Highest > 0 && r.Stop == GeneratorSaturated:
		highest = "≥ " + num(r.Highest) + "/s"
	case r.Highest > 0 && r.LowestFailing == 0:
		highest = "≥ " + num(r.Highest) + "/s"
	case r.Highest > 0:
		highest = num(r.Highest) + "/s"
	}
	facts := []pageFact{{"Highest sustainable rate", highest}}
	if r.LowestFailing > 0 {
		facts = append(facts, pageFact{"First failing rate", num(r.LowestFailing) + "/s"})
	}
	if r.Knee != nil {
		facts = append(facts, pageFact{"Knee", num(r.Knee.Rate) + "/s"})
	}
	if f := r.USL; f != nil && f.PeakThroughput > 0 && f.PeakThroughput < 1e12 {
		facts = append(facts, pageFact{"USL peak", num(f.PeakThroughput) + "/s"})
	}
	facts = append(facts, pageFact{"Stopped", string(r.Stop)})
	return facts
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
