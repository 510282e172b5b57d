package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/series"
)

// GC thresholds. Stop-the-world pauses of 5 % of wall time, sustained, add
// directly to every request caught in them. Below that, pauses that grow
// with the load (tau ≥ 0.6 over at least 4 scrapes) past 2 % are the early
// sign: allocation rate scales with throughput and the heap is too tight.
const (
	gcShare     = 0.05
	gcRisingMin = 0.02
	gcTau       = 0.6
	gcPoints    = 4
)

// gcPressure finds processes spending a growing or large share of their
// time in GC pauses.
func gcPressure(c *context) []Finding {
	var fs []Finding
	for _, g := range c.gcShares() {
		high := func(i int) bool { return g.points[i].Value >= gcShare }
		if run, ok := sustained(g.points, high); ok {
			fs = append(fs, c.gcHigh(g, run.first, lastHolding(g.points, run.first, high)))
			continue
		}
		if f, ok := c.gcRising(g); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// gcSeries is the share of wall time one process spent paused, by scrape.
type gcSeries struct {
	name, source, label string
	points              []series.Point
}

// gcShares sums the pause time of every collector and cause of a process
// per second: jvm_gc_pause_seconds_sum (Micrometer) and
// go_gc_duration_seconds_sum (Go), as rates, read as seconds per second.
func (c *context) gcShares() []gcSeries {
	var out []gcSeries
	for _, name := range []string{"jvm_gc_pause_seconds_sum", "go_gc_duration_seconds_sum"} {
		type proc struct {
			first *series.Series
			bySec map[int]float64
		}
		var procs []*proc
		for _, s := range c.set.Find(name) {
			var p *proc
			for _, o := range procs {
				if sameLabels(o.first.Labels, s.Labels, []string{"action", "cause", "gc"}) {
					p = o
				}
			}
			if p == nil {
				p = &proc{first: s, bySec: map[int]float64{}}
				procs = append(procs, p)
			}
			for _, pt := range perSecond(s) {
				p.bySec[pt.Sec] += pt.Value
			}
		}
		for _, p := range procs {
			var pts []series.Point
			for sec, v := range p.bySec {
				pts = append(pts, series.Point{Sec: sec, Value: v})
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
			key := series.Series{Name: name, Labels: without(p.first.Labels, []string{"action", "cause", "gc"})}
			out = append(out, gcSeries{name: roleName(p.first), source: key.Key(), label: titled(&key), points: pts})
		}
	}
	return out
}

func (c *context) gcHigh(g gcSeries, first, last int) Finding {
	peak := peakIndex(g.points, first, last)
	from, to := g.points[first].Sec, g.points[last].Sec
	f := Finding{
		Kind: KindGCPressure, Severity: Warning, From: from, To: to,
		Title: "GC pressure: " + g.name + " paused for GC " + pct(g.points[peak].Value) + " of the time (" + g.label + ") from " + at(from),
		Evidence: []Evidence{
			{Source: g.source, Sec: from, Value: g.points[first].Value, Text: "GC pauses: " + pct(g.points[first].Value) + " of wall time"},
			{Source: g.source, Sec: g.points[peak].Sec, Value: g.points[peak].Value, Text: "highest: " + pct(g.points[peak].Value) + " of wall time"},
		},
		Remedies: remediesFor(KindGCPressure),
	}
	if e, ok := c.clientAt(g.points[peak].Sec); ok {
		f.Evidence = append(f.Evidence, e)
	}
	return f
}

// gcRising checks whether the pause share grew with the throughput.
func (c *context) gcRising(g gcSeries) (Finding, bool) {
	var shares, loads []float64
	var pts []series.Point
	for _, p := range g.points {
		for _, s := range c.secs {
			if s.sec == p.Sec {
				shares, loads, pts = append(shares, p.Value), append(loads, s.x), append(pts, p)
			}
		}
	}
	if len(pts) < gcPoints {
		return Finding{}, false
	}
	hi, lo := argmax(shares), argmin(shares)
	tau := kendallTau(loads, shares)
	if tau < gcTau || shares[hi] < gcRisingMin || loads[hi] <= loads[lo] {
		return Finding{}, false
	}
	return Finding{
		Kind: KindGCPressure, Severity: Warning, From: pts[lo].Sec, To: pts[hi].Sec,
		Title: "GC pause share rises with load: " + g.name + " " + pct(shares[lo]) + " at " + rate(loads[lo]) + " → " +
			pct(shares[hi]) + " at " + rate(loads[hi]) + " (" + g.label + ")",
		Evidence: []Evidence{
			{Source: g.source, Sec: pts[lo].Sec, Value: shares[lo], Text: "GC pauses " + pct(shares[lo]) + " of wall time at " + rate(loads[lo])},
			{Source: g.source, Sec: pts[hi].Sec, Value: shares[hi], Text: "GC pauses " + pct(shares[hi]) + " of wall time at " + rate(loads[hi])},
			{Source: g.source, Sec: pts[hi].Sec, Value: tau, Text: "Kendall's tau of pause share against throughput: " + num(tau) +
				" over " + count(float64(len(pts))) + " scrapes"},
		},
		Remedies: remediesFor(KindGCPressure),
	}, true
}

func argmin(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x < xs[best] {
			best = i
		}
	}
	return best
}
