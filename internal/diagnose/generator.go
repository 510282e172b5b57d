package diagnose

import (
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// Generator thresholds. Above 85 % of its cores the generator's own
// scheduling and timing start to show in the latencies it reports. Lag is
// judged against the target's response time: 20 ms of late starts matter
// little beside a 2 s response and a lot beside a 5 ms one. Each signal
// must last 3 seconds in a row, so one GC pause or CI hiccup cannot raise it.
const (
	genCPU         = 0.85
	genLagAbs      = 0.020 // s
	genLagShare    = 0.2   // of the second's p95
	genSeconds     = 3
	genDropShare   = 0.01 // of the iterations offered
	genLatencySame = 1.5  // the target's latency rose less than this while dropping
)

// generatorBound finds the seconds in which loadlens itself, not the
// target, limited the test: its CPU was used up, its scheduler started
// iterations late, or it ran out of VUs while the target was not slower.
func generatorBound(c *context) []Finding {
	var parts []string
	var ev []Evidence
	from, to := -1, -1
	cover := func(a, b int) {
		if from < 0 || a < from {
			from = a
		}
		to = max(to, b)
	}
	if part, e, a, b, ok := c.generatorCPU(); ok {
		parts, ev = append(parts, part), append(ev, e...)
		cover(a, b)
	}
	if part, e, a, b, ok := c.generatorLag(); ok {
		parts, ev = append(parts, part), append(ev, e...)
		cover(a, b)
	}
	if part, e, a, b, ok := c.generatorDrops(); ok {
		parts, ev = append(parts, part), append(ev, e...)
		cover(a, b)
	}
	if len(parts) == 0 {
		return nil
	}
	return []Finding{{
		Kind: KindGeneratorBound, Severity: Critical, From: from, To: to,
		Title:    "The load generator is the bottleneck from " + at(from) + ": " + strings.Join(parts, ", ") + "; the numbers are not the target's",
		Evidence: ev, Remedies: remediesFor(KindGeneratorBound),
	}}
}

// generatorCPU checks the generator's CPU use against its capacity.
func (c *context) generatorCPU() (string, []Evidence, int, int, bool) {
	for _, used := range c.set.Find(GeneratorCPU) {
		capacity := sibling(c.set, GeneratorCapacity, used)
		if capacity == nil || len(capacity.Points) == 0 {
			continue
		}
		var share []series.Point
		for _, p := range used.Points {
			if cp := capacityAt(capacity.Points, p.Sec); cp > 0 {
				share = append(share, series.Point{Sec: p.Sec, Value: p.Value / cp})
			}
		}
		busy := func(i int) bool { return share[i].Value >= genCPU }
		run, ok := firstRun(len(share), genSeconds, busy)
		if !ok {
			continue
		}
		last := lastHolding(share, run.first, busy)
		peak := run.first
		for i := run.first; i <= last; i++ {
			if share[i].Value > share[peak].Value {
				peak = i
			}
		}
		cp := capacityAt(capacity.Points, share[peak].Sec)
		ev := []Evidence{
			{Source: used.Key(), Sec: share[run.first].Sec, Value: share[run.first].Value * cp,
				Text: "loadlens used " + num(share[run.first].Value*cp) + " of " + cores(cp) + " (" + pct(share[run.first].Value) + ")"},
			{Source: used.Key(), Sec: share[peak].Sec, Value: share[peak].Value * cp,
				Text: "highest: " + num(share[peak].Value*cp) + " of " + cores(cp) + " (" + pct(share[peak].Value) + ")"},
		}
		return "its CPU at " + pct(share[peak].Value) + " of " + cores(cp), ev, share[run.first].Sec, share[last].Sec, true
	}
	return "", nil, 0, 0, false
}

// capacityAt is the generator's capacity at sec; one point stands for the
// whole run, since the capacity rarely changes.
func capacityAt(points []series.Point, sec int) float64 {
	if v, ok := valueAt(points, sec); ok {
		return v
	}
	if len(points) > 0 {
		return points[len(points)-1].Value
	}
	return 0
}

// generatorLag checks the scheduler's lag against the target's latency.
func (c *context) generatorLag() (string, []Evidence, int, int, bool) {
	late := func(i int) bool {
		s := &c.secs[i]
		return s.lag >= max(genLagAbs, genLagShare*s.p95)
	}
	run, ok := firstRun(len(c.secs), genSeconds, late)
	if !ok {
		return "", nil, 0, 0, false
	}
	last := run.last
	for i := run.last; i < len(c.secs); i++ {
		if late(i) {
			last = i
		}
	}
	peak := run.first
	for i := run.first; i <= last; i++ {
		if c.secs[i].lag > c.secs[peak].lag {
			peak = i
		}
	}
	p := &c.secs[peak]
	ev := []Evidence{
		{Source: "scheduler_lag", Sec: c.secs[run.first].sec, Value: c.secs[run.first].lag,
			Text: "iterations started late: lag p99 " + dur(c.secs[run.first].lag) + " beside a p95 of " + dur(c.secs[run.first].p95)},
		{Source: "scheduler_lag", Sec: p.sec, Value: p.lag, Text: "highest lag p99: " + dur(p.lag) + " beside a p95 of " + dur(p.p95)},
	}
	return "scheduler lag p99 up to " + dur(p.lag), ev, c.secs[run.first].sec, c.secs[last].sec, true
}

// generatorDrops checks for open-model iterations dropped for lack of a VU
// while the target answered as fast as before: the VUs were too few for
// the rate, so the target never saw the load the test asked for.
func (c *context) generatorDrops() (string, []Evidence, int, int, bool) {
	dropping := func(i int) bool {
		s := &c.secs[i]
		return s.dropped >= 1 && s.dropped >= genDropShare*s.started
	}
	run, ok := firstRun(len(c.secs), genSeconds, dropping)
	if !ok {
		return "", nil, 0, 0, false
	}
	rs := c.column(func(s *clientSecond) float64 { return s.r })
	before := rs[max(run.first-5, 0):run.first]
	if len(before) < 2 {
		before = rs[run.first : run.first+1]
	}
	baseline, during := median(before), median(rs[run.first:run.last+1])
	if during >= genLatencySame*baseline && during-baseline >= satLatencyAbs {
		return "", nil, 0, 0, false // the target slowed down: saturation, not the generator
	}
	d := c.dropped(run.first, run.last)
	var started float64
	for _, s := range c.secs[run.first : run.last+1] {
		started += s.started
	}
	first, last := &c.secs[run.first], &c.secs[run.last]
	ev := []Evidence{
		{Source: "dropped_iterations", Sec: first.sec, Value: d,
			Text: count(d) + " of " + count(started) + " iterations dropped (" + pct(d/started) + ") from " + at(first.sec) + " to " + at(last.sec) + ": no free VU"},
		{Source: "http_req_duration", Sec: first.sec, Value: during,
			Text: "mean response time meanwhile " + dur(during) + ", before " + dur(baseline) + ": the target was not slower"},
		{Source: "vus_max", Sec: first.sec, Value: float64(first.m.VUsMax), Text: "VUs allocated: " + count(float64(first.m.VUsMax))},
	}
	return count(d) + " iterations dropped for lack of VUs", ev, first.sec, last.sec, true
}
