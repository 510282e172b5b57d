package diagnose

import (
	"strconv"
	"strings"
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
	names := make([]string, len(top))
	for j, p := range top {
		names[j] = p.Name
	}
	v := c.newTailView(KindTraceDBTail, b)
	bld := v.bld
	in := v.mean(sum, "mean time of those requests in the statements named", traceSrc(v.ep, groupTail, spans.PartDB, names...))
	share := bld.derive(StatRatio, UnitFraction, "share of the slow tail's time in the statements named", in, v.tail)
	v.count(b)
	words := []string{"", "one query", "two queries", "three queries"}
	title := []any{name("p95"), " of ", name(v.ep), " is ", share, " in " + words[len(top)] + ": "}
	for j, p := range top {
		if j > 0 {
			title = append(title, ", ")
		}
		title = append(title, name(p.Span))
	}
	bld.title(title...)
	bld.evidence(share, "the ", v.n, " slowest requests (", name("p95"), " ", v.p95, " and above) took ", v.tail, " on average, ", in, " of it in these statements")
	for _, p := range top {
		t := v.mean(p.Time, "mean time of the slow tail in the statement", traceSrc(v.ep, groupTail, spans.PartDB, p.Name))
		s := bld.derive(StatRatio, UnitFraction, "the statement's share of the slow tail's time", t, v.tail)
		line := []any{"span ", name(p.Span), ": ", t, " (", s, ")"}
		if b.Median.Traces > 0 {
			mt := v.mean(partOf(b.Median.Parts, p), "mean time of the median requests in the statement", traceSrc(v.ep, groupMedian, spans.PartDB, p.Name))
			line = append(line, " vs ", mt, " at the median")
		}
		if p.Name != p.Span {
			line = append(line, ": ", name(p.Name))
		}
		bld.evidence(t, line...)
	}
	return bld.done(v.from, v.to)
}

// The groups of an endpoint's joined requests a trace_parts source names.
const (
	groupAll    = "all"     // every joined request
	groupTail   = ">= p95"  // at or above their p95
	groupMedian = "p40-p60" // the median band
)

// traceSrc is a trace_parts source: of an endpoint's joined requests in a
// group, the parts of one kind and names (several joined by a newline,
// which no statement holds; none: every part of the kind), or without a
// kind their duration.
func traceSrc(ep, group, kind string, names ...string) string {
	kv := []string{"endpoint", ep}
	if kind != "" {
		kv = append(kv, "part", kind)
	}
	if len(names) > 0 {
		kv = append(kv, "name", strings.Join(names, "\n"))
	}
	if group != "" {
		kv = append(kv, "traces", group)
	}
	return labelled(traceSource, kv...)
}

// tailView is what the trace-tail rules state of every endpoint's slow
// tail: its p95, its requests' mean duration and (count) how many they are.
type tailView struct {
	bld          *builder
	ep           string
	from, to     int
	p95, tail, n ref
}

func (c *context) newTailView(kind string, b *spans.Breakdown) *tailView {
	v := &tailView{bld: newBuilder(kind, Warning), ep: c.endpointLabel(b.Endpoint)}
	v.from, v.to = traceSeconds(b)
	v.p95 = v.bld.add(Figure{Value: b.P95.Seconds(), Unit: UnitDuration, What: "p95 of the requests joined with spans", Source: traceSrc(v.ep, "", ""),
		Stat: StatQuantile, Q: 95, From: v.from, To: v.to})
	v.tail = v.mean(b.Tail.Duration, "mean duration of the requests at or above p95", traceSrc(v.ep, groupTail, ""))
	return v
}

// count keeps how many requests the tail has.
func (v *tailView) count(b *spans.Breakdown) ref {
	v.n = v.bld.add(Figure{Value: float64(b.Tail.Traces), Unit: UnitCount, What: "requests at or above p95 joined with spans", Source: traceSrc(v.ep, groupTail, ""),
		Stat: StatCount, From: v.from, To: v.to})
	return v.n
}

// mean keeps a mean over a group of joined requests.
func (v *tailView) mean(d time.Duration, what, src string) ref {
	return v.bld.add(Figure{Value: d.Seconds(), Unit: UnitDuration, What: what, Source: src, Stat: StatMean, From: v.from, To: v.to})
}

// endpointLabel names an endpoint of the run's layout.
func (c *context) endpointLabel(e int32) string {
	if int(e) < len(c.names) {
		return c.names[e]
	}
	return "endpoint " + strconv.Itoa(int(e))
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
