package diagnose

import (
	"sort"
	"strings"

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

// gcLabels are the labels that tell a process's collectors and causes
// apart; a process's pause share sums over them.
var gcLabels = []string{"action", "cause", "gc"}

// gcShares sums the pause time of every collector and cause of a process
// per second: jvm_gc_pause_seconds_sum (Micrometer) and
// go_gc_duration_seconds_sum (Go), as rates, read as seconds per second,
// at the run's whole seconds only.
// The source is sum(NAME{labels}): every series of the name whose labels,
// but for action, cause and gc, are these.
func (c *context) gcShares() []gcSeries {
	var out []gcSeries
	for _, n := range []string{"jvm_gc_pause_seconds_sum", "go_gc_duration_seconds_sum"} {
		type proc struct {
			first *series.Series
			bySec map[int]float64
		}
		var procs []*proc
		for _, s := range c.set.Find(n) {
			var p *proc
			for _, o := range procs {
				if sameLabels(o.first.Labels, s.Labels, gcLabels) {
					p = o
				}
			}
			if p == nil {
				p = &proc{first: s, bySec: map[int]float64{}}
				procs = append(procs, p)
			}
			for _, pt := range perSecond(s) {
				if c.run != nil && pt.Sec >= c.whole {
					continue // the cut-short last second and after: no whole second of the run (trial A quoted 15 req/s after its load ended)
				}
				p.bySec[pt.Sec] += pt.Value
			}
		}
		for _, p := range procs {
			var pts []series.Point
			for sec, v := range p.bySec {
				pts = append(pts, series.Point{Sec: sec, Value: v})
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
			key := series.Series{Name: n, Labels: without(p.first.Labels, gcLabels)}
			src := c.define("sum("+key.Key()+")", pts)
			out = append(out, gcSeries{name: roleName(p.first), source: src, label: titled(&key), points: pts})
		}
	}
	return out
}

func (c *context) gcHigh(g gcSeries, first, last int) Finding {
	from, to := g.points[first].Sec, g.points[last].Sec
	peakSec := g.points[peakIndex(g.points, first, last)].Sec
	b := newBuilder(KindGCPressure, Warning)
	onset := b.second(from, StatOnset, "the first scrape with pauses over the threshold")
	f0 := b.add(c.fig(g.source, StatValue, from, from, UnitFraction, "share of wall time paused for GC at the first scrape"))
	peak := b.add(c.fig(g.source, StatMax, from, to, UnitFraction, "the highest share of wall time paused for GC"))
	b.title("GC pressure: ", name(g.name), " paused for GC ", peak, " of the time (", name(g.label), ") from ", onset)
	b.evidence(f0, "GC pauses: ", f0, " of wall time at ", onset)
	b.evidence(peak, "highest: ", peak, " of wall time at ", b.second(peakSec, StatSecond, "the scrape with the most GC"))
	c.clientAt(b, peakSec)
	return b.done(from, to)
}

// gcRising checks whether the pause share grew with the load: the
// offered rate in the open model, else the throughput. Once GC bites, a
// JVM completes fewer requests than it is offered, so against its
// throughput the pauses stop rising with the load exactly when they
// matter (bench/truth's gc case: 1 % at 6/s to 45 % at 20/s offered,
// while it completed 12/s).
func (c *context) gcRising(g gcSeries) (Finding, bool) {
	var shares, loads []float64
	var pts []series.Point
	for _, p := range g.points {
		for _, s := range c.secs {
			if s.sec == p.Sec {
				x := s.x
				if c.open {
					x = s.load
				}
				shares, loads, pts = append(shares, p.Value), append(loads, x), append(pts, p)
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
	b := newBuilder(KindGCPressure, Warning)
	reqs, what, tail := c.client(SrcRequests), "throughput at that scrape", ""
	if c.open {
		reqs, what, tail = c.client(SrcOffered), "offered load at that scrape", " offered"
	}
	sLo := b.add(c.fig(g.source, StatValue, pts[lo].Sec, pts[lo].Sec, UnitFraction, "share of wall time paused for GC at the least"))
	sHi := b.add(c.fig(g.source, StatValue, pts[hi].Sec, pts[hi].Sec, UnitFraction, "share of wall time paused for GC at the most"))
	xLo := b.add(c.fig(reqs, StatValue, pts[lo].Sec, pts[lo].Sec, UnitReqPerSec, what))
	xHi := b.add(c.fig(reqs, StatValue, pts[hi].Sec, pts[hi].Sec, UnitReqPerSec, what))
	from, to := pts[0].Sec, pts[len(pts)-1].Sec
	ta := b.add(Figure{Value: tau, Unit: UnitNumber, What: "Kendall's tau of the pause share against the " + strings.TrimSuffix(what, " at that scrape"),
		Source: g.source + " vs " + reqs, Stat: StatTau, From: from, To: to})
	n := b.add(c.fig(g.source, StatCount, from, to, UnitCount, "scrapes compared"))
	b.title("GC pause share rises with load: ", name(g.name), " ", sLo, " at ", xLo, tail, " → ", sHi, " at ", xHi, tail, " (", name(g.label), ")")
	b.evidence(sLo, "GC pauses ", sLo, " of wall time at ", xLo, tail, " (", b.second(pts[lo].Sec, StatSecond, "the scrape of the least pause share"), ")")
	b.evidence(sHi, "GC pauses ", sHi, " of wall time at ", xHi, tail, " (", b.second(pts[hi].Sec, StatSecond, "the scrape of the most pause share"), ")")
	b.evidence(ta, "Kendall's tau of pause share against the "+strings.TrimSuffix(what, " at that scrape")+": ", ta, " over ", n, " scrapes from ",
		b.second(from, StatSecond, "the first scrape compared"), " to ", b.second(to, StatSecond, "the last scrape compared"))
	// The span covers every scrape compared: the least share may come
	// after the most (the load fell again).
	return b.done(from, to), true
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
