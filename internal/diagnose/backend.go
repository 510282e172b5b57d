package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/series"
)

// Thresholds of the backend finding. The app scaled out when it had 30 %
// more replicas, well past one pod of ten, which noise cannot add. The
// throughput did not follow when it rose less than half as much as the
// replicas (ten pods to seventeen should bring +70 %, not +10 %). A
// backend's latency rose when its median after scaling is 1.5 × or more
// its median before, and by 100 µs or more: a cache answers in tens to
// hundreds of µs, so that is a real rise for it, and a dependency that
// kept up would show the same latency at any number of callers.
const (
	backendReplicaGain = 1.3
	backendFollow      = 0.5
	backendLatencyGain = 1.5
	backendLatencyAbs  = 100e-6
)

// backendLatency is a dependency's latency as a series shows it.
type backendLatency struct {
	what   string // "DB" or "cache"
	label  string // what the source measures, for a title
	source string
	points []series.Point
}

// backendLatencies reads the DB and cache latencies the series offer: the
// mean of a _sum over a _count, or a latency gauge.
func (c *context) backendLatencies() []backendLatency {
	var out []backendLatency
	pairs := []struct{ sum, count, what, label string }{
		{"redis_commands_duration_seconds_total", "redis_commands_total", "cache", "Redis time per command"},
		{"lettuce_command_completion_seconds_sum", "lettuce_command_completion_seconds_count", "cache", "cache command latency"},
		{"hikaricp_connections_usage_seconds_sum", "hikaricp_connections_usage_seconds_count", "DB", "DB time per connection use"},
	}
	for _, p := range pairs {
		for _, s := range c.set.Find(p.sum) {
			n := sibling(c.set, p.count, s)
			if n == nil {
				continue
			}
			src, pts := c.ratio(c.ofSeries(s), c.ofSeries(n))
			out = append(out, backendLatency{what: p.what, label: p.label + " (" + describe(s) + ")", source: src, points: pts})
		}
	}
	for _, s := range c.set.Find("pg_stat_activity_max_tx_duration") {
		if s.Label("state") == "active" {
			src := c.ofSeries(s)
			out = append(out, backendLatency{what: "DB", label: "the longest active DB transaction (" + describe(s) + ")", source: src, points: c.values(src)})
		}
	}
	return out
}

// backendNotScaled finds a deployment that scaled out while the
// throughput stayed and a DB or cache got slower: the dependency every
// replica shares did not scale with them (case study 2: Aurora and
// ElastiCache without autoscaling, so 3,000 VUs gave the 3,700 TPS of
// 1,500 at twice the response time).
func backendNotScaled(c *context) []Finding {
	if len(c.secs) < satMinSeconds {
		return nil
	}
	lo, hi := c.secs[0].sec, c.secs[len(c.secs)-1].sec
	lats := c.backendLatencies()
	if len(lats) == 0 {
		return nil
	}
	var fs []Finding
	for _, d := range c.deployments() {
		so, ok := d.scaledOut(lo, hi)
		if !ok || so.onset-1 < lo || so.done >= hi {
			continue
		}
		reps := c.ofSeries(d.replicas)
		n0, n1 := aggregate(c.values(reps), StatValue, so.from, so.from), aggregate(c.values(reps), StatValue, so.to, so.to)
		if n1 < backendReplicaGain*n0 {
			continue
		}
		reqs := c.client(SrcRequests)
		x0, x1 := aggregate(c.values(reqs), StatMedian, lo, so.onset-1), aggregate(c.values(reqs), StatMedian, so.done, hi)
		if x1/x0-1 >= backendFollow*(n1/n0-1) {
			continue
		}
		var rose []backendLatency
		var gains []float64
		for _, l := range lats {
			if len(within(l.points, lo, so.onset-1)) < minPoints || len(within(l.points, so.done, hi)) < minPoints {
				continue
			}
			l0, l1 := aggregate(l.points, StatMedian, lo, so.onset-1), aggregate(l.points, StatMedian, so.done, hi)
			if l1 >= backendLatencyGain*l0 && l1-l0 >= backendLatencyAbs {
				rose, gains = append(rose, l), append(gains, l1/l0)
			}
		}
		if len(rose) > 0 {
			sort.SliceStable(rose, func(i, j int) bool { return gains[i] > gains[j] })
			fs = append(fs, c.backendFinding(d, so, lo, hi, rose))
		}
	}
	return fs
}

// backendFinding states the first of the latencies that rose (the most)
// in its title, and every one of them in its evidence.
func (c *context) backendFinding(d deployment, so scaleOut, lo, hi int, rose []backendLatency) Finding {
	l := rose[0]
	b := newBuilder(KindBackendBound, Warning)
	reps := c.ofSeries(d.replicas)
	n0 := b.add(c.fig(reps, StatValue, so.from, so.from, UnitCount, "replicas at the start of the run ("+d.replicas.Name+")"))
	n1 := b.add(c.fig(reps, StatValue, so.to, so.to, UnitCount, "the most replicas during the run"))
	l0 := b.add(c.fig(l.source, StatMedian, lo, so.onset-1, UnitDuration, l.label+" before scaling (median)"))
	l1 := b.add(c.fig(l.source, StatMedian, so.done, hi, UnitDuration, l.label+" once scaled (median)"))
	gain := b.derive(StatRatio, UnitRatio, "latency once scaled over before", l1, l0)
	reqs, mean := c.client(SrcRequests), c.client(SrcMean)
	x0 := b.add(c.fig(reqs, StatMedian, lo, so.onset-1, UnitReqPerSec, "throughput before scaling (median)"))
	x1 := b.add(c.fig(reqs, StatMedian, so.done, hi, UnitReqPerSec, "throughput once scaled (median)"))
	r0 := b.add(c.fig(mean, StatMedian, lo, so.onset-1, UnitDuration, "mean response time before scaling (median)"))
	r1 := b.add(c.fig(mean, StatMedian, so.done, hi, UnitDuration, "mean response time once scaled (median)"))
	onset := b.second(so.onset, StatOnset, "scaling started: the first scrape asking for more replicas")
	b.title("The app scaled out but the ", l.what, " did not: ", name(d.name), " went from ", n0, " to ", n1, " replicas from ", onset,
		", ", name(l.label), " ", l0, " → ", l1, " (", gain, "), throughput ", x0, " → ", x1)
	b.evidence(n1, name(d.replicas.Name), ": ", n0, " → ", n1, ", all there at ", b.second(so.done, StatSecond, "the first scrape at the most replicas"))
	b.evidence(gain, name(l.label), ": ", l0, " before scaling, ", l1, " once scaled (", gain, ")")
	for _, o := range rose[1:] {
		o0 := b.add(c.fig(o.source, StatMedian, lo, so.onset-1, UnitDuration, o.label+" before scaling (median)"))
		o1 := b.add(c.fig(o.source, StatMedian, so.done, hi, UnitDuration, o.label+" once scaled (median)"))
		og := b.derive(StatRatio, UnitRatio, "latency once scaled over before", o1, o0)
		b.evidence(og, "the ", o.what, " too, ", name(o.label), ": ", o0, " before scaling, ", o1, " once scaled (", og, ")")
	}
	b.evidence(x1, "throughput ", x0, " → ", x1, " (", b.derive(StatChange, UnitChange, "change of throughput once scaled", x1, x0), ") for ",
		b.derive(StatChange, UnitChange, "change of replicas", n1, n0), " replicas")
	b.evidence(r1, "mean response time ", r0, " → ", r1, ": the "+c.counts().Many+" wait on the ", l.what, ", which every replica shares")
	return b.done(so.onset, hi)
}
