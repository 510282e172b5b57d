package spans

import (
	"cmp"
	"slices"
	"time"
)

// Group bands for the comparison of the slow tail with the median.
const (
	TailQuantile = 95 // the tail: traces at or above the endpoint's p95 of joined traces
	MedianLow    = 40 // the median band: traces from p40 ...
	MedianHigh   = 60 // ... to p60
)

// Breakdown is where one endpoint's sampled requests spent their time.
type Breakdown struct {
	Endpoint   int32
	Traces     int           // requests joined with spans
	Seconds    []Second      // per second of the run with joined traces, in order
	All        Group         // every joined trace
	Median     Group         // the traces around the median
	Tail       Group         // the traces at or above p95
	Statements []Statement   // the endpoint's statements and cache operations, most total time first
	P95        time.Duration // the p95 of the joined traces' durations
}

// Second is the mean time per bucket of the traces that ended in one second.
type Second struct {
	Sec    int
	Traces int
	Parts  []Part // one per Bucket, largest first; Name is the bucket's host for http
}

// Group is the mean time per part of a group of traces.
type Group struct {
	Traces   int
	Duration time.Duration // their mean duration
	Parts    []Part        // mean time per part (statement, operation, host) in whole nanoseconds, largest first
}

// Share returns the part's share of the group's mean duration.
func (g *Group) Share(p Part) float64 {
	if g.Duration <= 0 {
		return 0
	}
	return float64(p.Time) / float64(g.Duration)
}

// Bucket is how the per-second breakdown groups a part: the database and
// the cache as a whole, outgoing HTTP per host, the service, outside.
func Bucket(p Part) Part {
	if p.Kind == PartHTTP {
		return Part{Kind: p.Kind, Name: p.Name, Time: p.Time}
	}
	return Part{Kind: p.Kind, Time: p.Time}
}

// Summarize computes each endpoint's breakdown from its joined traces and
// statements; endpoints without traces are left out.
func Summarize(traces []Trace, stmts []Statement) []Breakdown {
	by, eps := groupBy(traces, func(t Trace) int32 { return t.Endpoint })
	var out []Breakdown
	for _, e := range eps {
		ts := by[e]
		b := Breakdown{Endpoint: e, Traces: len(ts)}
		b.Seconds = perSecond(ts)
		durs := make([]time.Duration, len(ts))
		for i, t := range ts {
			durs[i] = t.Duration
		}
		slices.Sort(durs)
		b.P95 = rank(durs, TailQuantile)
		lo, hi := rank(durs, MedianLow), rank(durs, MedianHigh)
		b.All = group(ts, func(*Trace) bool { return true }, func(p Part) Part { return p })
		b.Tail = group(ts, func(t *Trace) bool { return t.Duration >= b.P95 }, func(p Part) Part { return p })
		b.Median = group(ts, func(t *Trace) bool { return t.Duration >= lo && t.Duration <= hi }, func(p Part) Part { return p })
		for _, s := range stmts {
			if s.Endpoint == e {
				b.Statements = append(b.Statements, s)
			}
		}
		relabel(&b)
		out = append(out, b)
	}
	return out
}

// groupBy returns ts by key, in the order written, and the keys sorted.
func groupBy[K cmp.Ordered](ts []Trace, key func(Trace) K) (map[K][]Trace, []K) {
	by := map[K][]Trace{}
	var keys []K
	for _, t := range ts {
		k := key(t)
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], t)
	}
	slices.Sort(keys)
	return by, keys
}

// rank returns the q-th percentile of sorted durations (nearest rank).
func rank(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q/100*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// perSecond averages the buckets of the traces of each second.
func perSecond(ts []Trace) []Second {
	bySec, secs := groupBy(ts, func(t Trace) int { return t.Sec })
	out := make([]Second, 0, len(secs))
	for _, s := range secs {
		g := group(bySec[s], func(*Trace) bool { return true }, Bucket)
		out = append(out, Second{Sec: s, Traces: g.Traces, Parts: g.Parts})
	}
	return out
}

// group averages the parts, keyed by key, of the traces in.
func group(ts []Trace, in func(*Trace) bool, key func(Part) Part) Group {
	type k struct{ kind, name string }
	sum := map[k]*Part{}
	var g Group
	var total time.Duration
	for i := range ts {
		t := &ts[i]
		if !in(t) {
			continue
		}
		g.Traces++
		total += t.Duration
		for _, p := range t.Parts {
			p = key(p)
			kk := k{p.Kind, p.Name}
			if s := sum[kk]; s != nil {
				s.Time += p.Time
			} else {
				cp := p
				sum[kk] = &cp
			}
		}
	}
	if g.Traces == 0 {
		return g
	}
	g.Duration = total / time.Duration(g.Traces)
	for _, p := range sum {
		p.Time /= time.Duration(g.Traces)
		g.Parts = append(g.Parts, *p)
	}
	sortParts(g.Parts)
	return g
}
