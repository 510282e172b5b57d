package diagnose

import (
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// Verdict is the statement that no bottleneck was found, with the figures
// that show what was checked.
type Verdict struct {
	Figures []Figure
	Parts   []Segment
}

// Healthy returns the statement that no bottleneck was found, with the
// figures that show what was checked, or nil when fs holds a Warning or
// Critical finding or every request failed. Info findings do not make a
// run unhealthy.
func Healthy(in Input, fs []Finding) *Verdict {
	for _, f := range fs {
		if f.Severity >= Warning {
			return nil
		}
	}
	c := newContext(in)
	if c.allFailed() {
		return nil // never "no bottleneck" for a run that got no answer
	}
	b := newBuilder("healthy", Info)
	if len(c.secs) == 0 {
		// Not "no bottleneck found": a run that recorded no request may have sent many that never came back.
		b.title("nothing to check: the run recorded no whole second with " + c.counts().Many + ", so no bottleneck was looked for")
		return verdict(b)
	}
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	parts := []any{"no bottleneck found: "}
	reqs := c.client(SrcRequests)
	if p, ok := c.peakSecond(); ok {
		sec := c.secs[p].sec
		x := b.add(c.fig(reqs, StatValue, sec, sec, UnitReqPerSec, "the highest throughput of a whole second"))
		at := b.second(sec, StatSecond, "the second of the highest throughput")
		// "its busiest second": the summary's rate is the mean over the run, another figure
		switch {
		case c.open:
			parts = append(parts, "throughput followed the offered load, up to ", x, " in its busiest second (at ", at, ")")
		default:
			n := b.add(c.fig(c.client(SrcVUsAvg), StatValue, sec, sec, UnitCount, "active VUs over that second"))
			which := " in its busiest second, with "
			if c.secs[p].steady { // a ramp's seconds are left out: their VUs were not those of the second
				which = " in its busiest second of a steady load, with "
			}
			parts = append(parts, "throughput reached ", x, which, n, b.noun(n, " VU (at ", " VUs (at "), at, ")")
		}
	}
	u := c.counts()
	var p95 []any
	if c.run == nil || c.run.LatencyOf() != "" { // sessions alone have no latency: never "p95 0s"
		p95 = []any{name("p95"), " ", b.add(c.quantile(95, UnitDuration, "p95 of every "+u.One+" of the run")), ", "}
	}
	failed := b.add(c.fig(c.client(SrcFailed), StatSum, first, last, UnitCount, u.Many+" failed"))
	total := b.add(c.fig(reqs, StatSum, first, last, UnitCount, u.Many))
	share := b.derive(StatRatio, UnitRate, "share of the "+u.Many+" that failed", failed, total)
	if len(parts) > 1 {
		parts = append(parts, ", ")
	}
	parts = append(append(parts, p95...), share, " of ", total, c.noun(b, total, " ", " failed"))
	if g := c.generatorPeak(b); g != nil {
		parts = append(parts, "; ")
		parts = append(parts, g...)
	}
	if st := c.stealNote(b); st != nil {
		parts = append(append(parts, "; "), st...)
	}
	parts = append(parts, "; ")
	b.title(append(parts, c.serverChecked(b)...)...)
	v := verdict(b)
	v.Figures = unitLabels(c.unitWords(), v.Figures) // as Diagnose's findings (inUnit)
	return v
}

func verdict(b *builder) *Verdict {
	f := b.done(0, 0)
	return &Verdict{Figures: f.Figures, Parts: f.Parts}
}

// peakSecond returns the index of the whole second with the most requests
// whose load is known for the whole second: in the closed model one with
// the same VUs at its start and end, else one after the run's first.
func (c *context) peakSecond() (int, bool) {
	best := -1
	for _, steadyOnly := range []bool{true, false} {
		for i := range c.secs {
			s := &c.secs[i]
			ok := s.x > 0 && (c.open || (steadyOnly && s.steady) || (!steadyOnly && s.sec > c.first))
			if ok && (best < 0 || s.x > c.secs[best].x) {
				best = i
			}
		}
		if best >= 0 || c.open {
			break
		}
	}
	return best, best >= 0
}

// generatorPeak states the generator's highest CPU use over whole seconds,
// if recorded.
func (c *context) generatorPeak(b *builder) []any {
	used, capacity, share, ok := c.generatorSources()
	if !ok || len(share) == 0 {
		return nil
	}
	peak := 0
	for i, p := range share {
		if p.Value > share[peak].Value {
			peak = i
		}
	}
	sec := share[peak].Sec
	if c.distributed() {
		u := b.add(c.fig(used, StatValue, sec, sec, UnitNumber, "the most cores the busiest agent used in a whole second"))
		cp := b.add(c.fig(capacity, StatValue, sec, sec, UnitCores, "cores that agent may use"))
		s := b.add(c.fig(used+" / "+capacity, StatMax, c.first, c.whole-1, UnitFraction, "the highest share of its cores an agent used"))
		return []any{"the busiest agent used at most ", u, " of its ", cp, " (", s, ")"}
	}
	u := b.add(c.fig(used, StatValue, sec, sec, UnitNumber, "the most cores loadlens used in a whole second"))
	cp := b.add(c.fig(capacity, StatValue, sec, sec, UnitCores, "cores loadlens may use"))
	s := b.add(c.fig(used+" / "+capacity, StatMax, c.first, c.whole-1, UnitFraction, "the highest share of its cores loadlens used"))
	return []any{"the generator used at most ", u, " of ", cp, " (", s, ")"}
}

// serverFamilies are the series each server-side rule reads: by name, and
// by a suffix any prefix may carry (pgxpool's hand-written collectors).
var serverFamilies = []struct {
	what   string
	names  []string
	suffix string
}{
	{"DB pool", []string{"hikaricp_connections_active", "go_sql_in_use_connections", "pgbouncer_pools_client_waiting_connections",
		"pgxpool_acquired_conns", "db_client_connections_usage", "db_client_connection_count"}, pgxInUse},
	{"CPU", []string{"process_cpu_usage", "process_cpu_time_ns_total", "system_cpu_usage", "process_cpu_seconds_total",
		"container_cpu_usage_seconds_total", "node_cpu_seconds_total", "container_cpu_cfs_periods_total"}, ""},
	{"GC", []string{"jvm_gc_pause_seconds_sum", "go_gc_duration_seconds_sum"}, ""},
}

// serverChecked names the server-side families the rules could read.
func (c *context) serverChecked(b *builder) []any {
	var found, missing []string
	for _, g := range serverFamilies {
		if hits := familyHits(c.set, g.names, g.suffix); len(hits) > 0 {
			found = append(found, g.what+" ("+strings.Join(hits, ", ")+")")
		} else {
			missing = append(missing, g.what)
		}
	}
	if len(found) == 0 {
		return c.serverUnread(b)
	}
	n := c.serverCount(b)
	out := []any{"server checked (", n, " series): ", name(strings.Join(found, ", "))}
	if len(missing) > 0 {
		out = append(out, "; no series for ", strings.Join(missing, ", "))
	}
	return out
}

// familyHits returns the names of a family's series in set: those of
// names, then any other ending in suffix.
func familyHits(set series.Set, names []string, suffix string) []string {
	var hits []string
	for _, n := range names {
		if len(set.Find(n)) > 0 {
			hits = append(hits, n)
		}
	}
	for _, s := range set {
		if suffix != "" && strings.HasSuffix(s.Name, suffix) && !slices.Contains(hits, s.Name) {
			hits = append(hits, s.Name)
		}
	}
	return hits
}

// serverUnread says why no server-side rule ran: nothing was scraped, or
// what was scraped holds none of the series the rules read.
func (c *context) serverUnread(b *builder) []any {
	throttled := len(c.set.Find(CgroupPeriods)) > 0 // a loopback target under a quota
	notChecked := "DB pool, CPU and GC were not checked"
	if throttled {
		notChecked = "DB pool and GC were not checked, and CPU only as its cgroup's quota throttled it (" + CgroupPeriods + ")"
	}
	if serverSeries(c.set) == 0 {
		return []any{"no server series were scraped, so " + notChecked}
	}
	var reads []string
	for _, g := range serverFamilies {
		names := g.names
		if g.suffix != "" {
			names = append(slices.Clip(names), "*"+g.suffix)
		}
		reads = append(reads, g.what+": "+strings.Join(names, ", "))
	}
	n := c.serverCount(b)
	return []any{n, " server series were scraped, but none that the DB pool, CPU and GC rules read, so " + notChecked +
		" (they read ", name(strings.Join(reads, "; ")), ")"}
}

// serverCount defines the number of scraped server series as a figure.
func (c *context) serverCount(b *builder) ref {
	c.define(SrcServer, []series.Point{{Sec: c.first, Value: float64(serverSeries(c.set))}})
	return b.add(c.fig(SrcServer, StatValue, c.first, c.first, UnitCount, "series scraped from the target"))
}

// serverSeries counts the scraped series, leaving out the generator's own.
func serverSeries(set series.Set) int {
	n := 0
	for _, s := range set {
		if !strings.HasPrefix(s.Name, "loadlens_") {
			n++
		}
	}
	return n
}
