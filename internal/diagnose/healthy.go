package diagnose

import (
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// Healthy returns the one-line statement that no bottleneck was found, with
// the figures that show what was checked, or "" when fs holds a Warning or
// Critical finding. Info findings do not make a run unhealthy.
func Healthy(in Input, fs []Finding) string {
	for _, f := range fs {
		if f.Severity >= Warning {
			return ""
		}
	}
	c := newContext(in)
	if len(c.secs) == 0 {
		return "no bottleneck found, but there was nothing to check: the run recorded no requests"
	}
	peak := 0
	var requests, failed float64
	for i, s := range c.secs {
		if s.x > c.secs[peak].x {
			peak = i
		}
		requests += s.x
		failed += s.failed
	}
	p := &c.secs[peak]
	var b strings.Builder
	b.WriteString("no bottleneck found: ")
	if c.open {
		b.WriteString("throughput followed the offered load up to " + rate(p.x))
	} else {
		b.WriteString("throughput reached " + rate(p.x) + " with " + count(p.n) + " VUs")
	}
	b.WriteString(" (at " + at(p.sec) + ") with p95 " + dur(secs(in.Run.Total().Duration.Quantile(95))) + " and " +
		pct(failed/requests) + " errors over " + count(float64(len(c.secs))) + " s")
	if g := c.generatorPeak(); g != "" {
		b.WriteString("; " + g)
	}
	b.WriteString("; " + c.serverChecked())
	return b.String()
}

// generatorPeak describes the generator's highest CPU use, if recorded.
func (c *context) generatorPeak() string {
	for _, used := range c.set.Find(GeneratorCPU) {
		capacity := sibling(c.set, GeneratorCapacity, used)
		if capacity == nil || len(used.Points) == 0 {
			continue
		}
		best, share := 0.0, 0.0
		var cp float64
		for _, p := range used.Points {
			if v := capacityAt(capacity.Points, p.Sec); v > 0 && p.Value/v >= share {
				best, share, cp = p.Value, p.Value/v, v
			}
		}
		if cp > 0 {
			return "the generator used at most " + num(best) + " of " + cores(cp) + " (" + pct(share) + ")"
		}
	}
	return ""
}

// serverChecked names the server-side families the rules could read.
func (c *context) serverChecked() string {
	groups := []struct {
		what  string
		names []string
	}{
		{"DB pool", []string{"hikaricp_connections_pending", "go_sql_in_use_connections"}},
		{"CPU", []string{"process_cpu_usage", "process_cpu_seconds_total", "container_cpu_usage_seconds_total",
			"node_cpu_seconds_total", "container_cpu_cfs_periods_total"}},
		{"GC", []string{"jvm_gc_pause_seconds_sum", "go_gc_duration_seconds_sum"}},
	}
	var found, missing []string
	for _, g := range groups {
		var hits []string
		for _, n := range g.names {
			if len(c.set.Find(n)) > 0 {
				hits = append(hits, n)
			}
		}
		if len(hits) > 0 {
			found = append(found, g.what+" ("+strings.Join(hits, ", ")+")")
		} else {
			missing = append(missing, g.what)
		}
	}
	if len(found) == 0 {
		return "no server series were scraped, so DB pool, CPU and GC were not checked"
	}
	out := "server checked (" + count(float64(serverSeries(c.set))) + " series): " + strings.Join(found, ", ")
	if len(missing) > 0 {
		out += "; no series for " + strings.Join(missing, ", ")
	}
	return out
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
