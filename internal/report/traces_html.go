package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/spans"
	"github.com/loadlens/loadlens/internal/units"
)

// tracesView is the report's traces section.
type tracesView struct {
	Note      string // what was joined, or why nothing was
	Endpoints []traceEndpointView
	UI        string
}

type traceEndpointView struct {
	Name       string
	Chart      template.HTML // the stacked breakdown over time, an inline SVG built here with every text escaped
	Legend     []legendItem
	Groups     []groupRow // the parts, median beside the slow tail
	Median     string     // the median band's mean and traces
	Tail       string     // the tail's mean and traces
	Statements []statementRow
	Slowest    []traceRow
	Failed     []traceRow
}

type legendItem struct{ Color, Label string }

type groupRow struct{ Part, Median, Tail string }

type statementRow struct{ Kind, Span, Statement, Calls, Total, Max string }

type traceRow struct {
	ID, Link, Duration, At, Note string
}

// chartColors are the parts' colours, in the order buckets are first seen;
// the service and outside have their own.
var chartColors = []string{"#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#eeca3b", "#9d755d"}

func partColor(p spans.Part, others map[string]string) string {
	switch p.Kind {
	case spans.PartService:
		return "#bab0ac"
	case spans.PartOutside:
		return "#dcdcdc"
	}
	k := partLabel(p)
	if c, ok := others[k]; ok {
		return c
	}
	c := chartColors[len(others)%len(chartColors)]
	others[k] = c
	return c
}

// newTracesView builds the section; nil when the run kept no traces.
func newTracesView(in *Input) *tracesView {
	t := in.Traces
	if t == nil {
		return nil
	}
	v := &tracesView{UI: t.UI}
	if st := t.Stats; st.Receiver {
		v.Note = fmt.Sprintf("%s of %s sampled requests were joined with the spans the target exported (%s spans in %s exports).",
			units.Count(int64(st.Sampled-st.Unjoined)), units.Count(int64(st.Sampled)), units.Count(int64(st.Spans)), units.Count(int64(st.Exports)))
	} else {
		v.Note = "No OTLP receiver ran (observe.traces), so only the trace ids of the slowest and failed requests were kept."
	}
	byEp := map[int32]*spans.Breakdown{}
	for i := range t.Breakdowns {
		byEp[t.Breakdowns[i].Endpoint] = &t.Breakdowns[i]
	}
	for e := range t.Slowest {
		b := byEp[int32(e)]
		if b == nil && len(t.Slowest[e]) == 0 && len(t.Failed[e]) == 0 {
			continue
		}
		ev := traceEndpointView{Name: endpointLabel(in.Run, e)}
		for _, k := range t.Slowest[e] {
			ev.Slowest = append(ev.Slowest, traceRow{ID: k.Trace.String(), Link: t.Link(k.Trace), Duration: units.Duration(k.Duration), At: units.Clock(k.Sec), Note: k.Err})
		}
		for _, k := range t.Failed[e] {
			note := k.Err
			if !k.Sampled {
				note += " (not sampled: the target may have kept no trace)"
			}
			ev.Failed = append(ev.Failed, traceRow{ID: k.Trace.String(), Link: t.Link(k.Trace), Duration: units.Duration(k.Duration), At: units.Clock(k.Sec), Note: note})
		}
		if b != nil {
			ev.Chart, ev.Legend = stackedChart(b)
			ev.Median = groupHead(&b.Median)
			ev.Tail = groupHead(&b.Tail)
			ev.Groups = groupRows(b)
			for _, s := range b.Statements {
				ev.Statements = append(ev.Statements, statementRow{Kind: s.Kind, Span: s.Span, Statement: s.Name,
					Calls: units.Count(int64(s.Calls)), Total: units.Duration(s.Total), Max: units.Duration(s.Max)})
			}
		}
		v.Endpoints = append(v.Endpoints, ev)
	}
	return v
}

func groupHead(g *spans.Group) string {
	if g.Traces == 0 {
		return "no traces"
	}
	return units.Duration(g.Duration) + " mean of " + units.CountOf(int64(g.Traces), "trace", "traces")
}

// groupRows lists every part of the tail and the median, the tail's order first.
func groupRows(b *spans.Breakdown) []groupRow {
	type key struct{ kind, name string }
	var order []spans.Part
	seen := map[key]bool{}
	for _, g := range []*spans.Group{&b.Tail, &b.Median} {
		for _, p := range g.Parts {
			if k := (key{p.Kind, p.Name}); !seen[k] {
				seen[k] = true
				order = append(order, p)
			}
		}
	}
	cellOf := func(g *spans.Group, p spans.Part) string {
		for _, q := range g.Parts {
			if q.Kind == p.Kind && q.Name == p.Name {
				return units.Duration(q.Time) + " (" + units.Share(g.Share(q)) + ")"
			}
		}
		return "–"
	}
	var out []groupRow
	for _, p := range order {
		out = append(out, groupRow{Part: partLabel(p), Median: cellOf(&b.Median, p), Tail: cellOf(&b.Tail, p)})
	}
	return out
}

// kindRank orders the parts of a stacked bar.
func kindRank(kind string) int {
	switch kind {
	case spans.PartDB:
		return 0
	case spans.PartCache:
		return 1
	case spans.PartHTTP:
		return 2
	case spans.PartService:
		return 3
	}
	return 4
}

// stackedChart draws the per-second mean time per bucket as stacked bars.
func stackedChart(b *spans.Breakdown) (template.HTML, []legendItem) {
	const w, h, pad = 720.0, 140.0, 4.0
	if len(b.Seconds) == 0 {
		return "", nil
	}
	first, last := b.Seconds[0].Sec, b.Seconds[len(b.Seconds)-1].Sec
	top := 0.0
	for _, s := range b.Seconds {
		var sum float64
		for _, p := range s.Parts {
			sum += float64(p.Time)
		}
		top = math.Max(top, sum)
	}
	if top == 0 {
		return "", nil
	}
	colors := map[string]string{}
	var legend []legendItem
	inLegend := map[string]bool{}
	bw := (w - 2*pad) / float64(last-first+1)
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="trace-chart" viewBox="0 0 %g %g" width="100%%" height="%g" role="img" aria-label="mean time per part, per second">`, w, h+16, h+16)
	for _, s := range b.Seconds {
		x := pad + float64(s.Sec-first)*bw
		y := h
		parts := slices.Clone(s.Parts)
		slices.SortStableFunc(parts, func(a, b spans.Part) int { // the same order in every bar: calls first, then the service, outside on top
			if ra, rb := kindRank(a.Kind), kindRank(b.Kind); ra != rb {
				return ra - rb
			}
			return strings.Compare(a.Name, b.Name)
		})
		for _, p := range parts {
			ph := float64(p.Time) / top * (h - pad)
			y -= ph
			c := partColor(p, colors)
			label := partLabel(p)
			if !inLegend[label] {
				inLegend[label] = true
				legend = append(legend, legendItem{Color: c, Label: label})
			}
			fmt.Fprintf(&sb, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s · %s: %s (mean of %s)</title></rect>`,
				x, y, math.Max(bw-1, 1), ph, c, template.HTMLEscapeString(units.Clock(s.Sec)), template.HTMLEscapeString(label),
				template.HTMLEscapeString(units.Duration(p.Time)), template.HTMLEscapeString(units.CountOf(int64(s.Traces), "trace", "traces")))
		}
	}
	fmt.Fprintf(&sb, `<text x="%g" y="%g" font-size="11">%s</text><text x="%g" y="%g" font-size="11" text-anchor="end">%s</text>`,
		pad, h+13, template.HTMLEscapeString(units.Clock(first)), w-pad, h+13, template.HTMLEscapeString(units.Clock(last)))
	fmt.Fprintf(&sb, `<text x="%g" y="12" font-size="11">%s</text></svg>`, pad, template.HTMLEscapeString(units.Duration(time.Duration(top))))
	return template.HTML(sb.String()), legend
}
