package diagnose

import (
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// Thresholds of the trace-tail rule: the slow tail (the joined traces at
// or above p95) spends most of its time in a few database statements.
const (
	tailMinTraces  = 5   // tail traces, for their mean to mean something
	tailMinJoined  = 20  // joined traces of the endpoint
	tailShare      = 0.5 // the statements' share of the tail's mean duration
	tailMinPart    = 0.1 // each named statement's own share
	tailMaxQueries = 3   // at most this many are named
	traceSource    = "trace_parts"
)

// KindTraceDBTail: an endpoint's slow tail is mostly a few DB statements.
const KindTraceDBTail = "trace-db-tail"

// traceDBTail names the statements an endpoint's p95 is made of, from the
// spans the target exported (spans.Breakdown): "p95 of GET /x is 80 % in
// two queries: …".
func traceDBTail(c *context) []Finding {
	var fs []Finding
	for i := range c.traces {
		b := &c.traces[i]
		if b.Traces < tailMinJoined || b.Tail.Traces < tailMinTraces || b.Tail.Duration <= 0 {
			continue
		}
		var top []spans.Part
		var sum time.Duration
		for _, p := range b.Tail.Parts {
			if p.Kind != spans.PartDB || b.Tail.Share(p) < tailMinPart || len(top) == tailMaxQueries {
				continue
			}
			top = append(top, p)
			sum += p.Time
		}
		if len(top) == 0 || float64(sum)/float64(b.Tail.Duration) < tailShare {
			continue
		}
		fs = append(fs, c.traceTailFinding(b, top, sum))
	}
	return fs
}

func (c *context) traceTailFinding(b *spans.Breakdown, top []spans.Part, sum time.Duration) Finding {
	ep := "endpoint " + strconv.Itoa(int(b.Endpoint))
	if int(b.Endpoint) < len(c.names) {
		ep = c.names[b.Endpoint]
	}
	from, to := traceSeconds(b)
	src := func(part, nm string) string {
		s := traceSource + `{endpoint="` + ep + `"`
		if part != "" {
			s += `,part="` + part + `",name="` + nm + `"`
		}
		return s + `,traces=">= p95"}`
	}
	fig := func(d time.Duration, what, source string) Figure {
		return Figure{Value: d.Seconds(), Unit: UnitDuration, What: what, Source: source, Stat: StatMean, From: from, To: to}
	}
	bld := newBuilder(KindTraceDBTail, Warning)
	p95 := bld.add(Figure{Value: b.P95.Seconds(), Unit: UnitDuration, What: "p95 of the requests joined with spans", Source: traceSource + `{endpoint="` + ep + `"}`,
		Stat: StatQuantile, Q: 95, From: from, To: to})
	tail := bld.add(fig(b.Tail.Duration, "mean duration of the requests at or above p95", src("", "")))
	in := bld.add(fig(sum, "mean time of those requests in the statements named", src(spans.PartDB, "the statements named")))
	share := bld.derive(StatRatio, UnitFraction, "share of the slow tail's time in the statements named", in, tail)
	n := bld.add(Figure{Value: float64(b.Tail.Traces), Unit: UnitCount, What: "requests at or above p95 joined with spans", Source: src("", ""), Stat: StatCount, From: from, To: to})
	words := []string{"", "one query", "two queries", "three queries"}
	title := []any{name("p95"), " of ", name(ep), " is ", share, " in " + words[len(top)] + ": "}
	for j, p := range top {
		if j > 0 {
			title = append(title, ", ")
		}
		title = append(title, name(p.Span))
	}
	bld.title(title...)
	bld.evidence(share, "the ", n, " slowest requests (", name("p95"), " ", p95, " and above) took ", tail, " on average, ", in, " of it in these statements")
	for _, p := range top {
		t := bld.add(fig(p.Time, "mean time of the slow tail in the statement", src(spans.PartDB, p.Name)))
		s := bld.derive(StatRatio, UnitFraction, "the statement's share of the slow tail's time", t, tail)
		line := []any{"span ", name(p.Span), ": ", t, " (", s, ")"}
		if m := partOf(b.Median.Parts, p); b.Median.Traces > 0 {
			mt := bld.add(Figure{Value: m.Seconds(), Unit: UnitDuration, What: "mean time of the median requests in the statement",
				Source: traceSource + `{endpoint="` + ep + `",part="db",name="` + p.Name + `",traces="p40-p60"}`, Stat: StatMean, From: from, To: to})
			line = append(line, " vs ", mt, " at the median")
		}
		if p.Name != p.Span {
			line = append(line, ": ", name(p.Name))
		}
		bld.evidence(t, line...)
	}
	return bld.done(from, to)
}

// partOf returns the time a group spent in the part p names.
func partOf(ps []spans.Part, p spans.Part) time.Duration {
	for _, q := range ps {
		if q.Kind == p.Kind && q.Name == p.Name {
			return q.Time
		}
	}
	return 0
}

// traceSeconds returns the first and last second with joined traces.
func traceSeconds(b *spans.Breakdown) (int, int) {
	if len(b.Seconds) == 0 {
		return 0, 0
	}
	return b.Seconds[0].Sec, b.Seconds[len(b.Seconds)-1].Sec
}

// endpointNameIn names endpoint i of a layout as endpointName does.
func endpointNameIn(l sample.Layout, i int) string {
	e := l.Endpoints[i]
	for j, o := range l.Endpoints {
		if j != i && o.Name == e.Name && int(e.Scenario) < len(l.Scenarios) {
			return e.Name + " (scenario " + l.Scenarios[e.Scenario].Name + ")"
		}
	}
	return e.Name
}
