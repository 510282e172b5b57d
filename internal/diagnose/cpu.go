package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/series"
)

// CPU thresholds. 90 % busy, sustained, is where queueing for the CPU
// starts to dominate response times (case study 1's DB at 78 % was slow
// because of its queries, but was not yet out of CPU; at 90 % it was the
// bottleneck again). A container throttled in a quarter of its scheduler
// periods is held back by its limit, whatever its average use.
const (
	cpuBusy      = 0.9
	cpuThrottled = 0.25
)

// cpuSubject is one process, host or container and its CPU use as the
// fraction of what it may use, one value per scrape.
type cpuSubject struct {
	name   string // "DB", "App", ...
	source string // the series key the fractions come from
	label  string // the source for a title: "node_cpu_seconds_total, role=db"
	what   string // how the fraction reads: "busy", "of 1 core", "of CFS periods throttled"
	limit  float64
	points []series.Point
	thresh float64
}

// cpuSaturation finds processes, hosts and containers whose CPU was used
// up for several scrapes in a row.
func cpuSaturation(c *context) []Finding {
	var fs []Finding
	for _, s := range c.cpuSubjects() {
		busy := func(i int) bool { return s.points[i].Value >= s.thresh }
		run, ok := sustained(s.points, busy)
		if !ok {
			continue
		}
		last := lastHolding(s.points, run.first, busy)
		fs = append(fs, c.cpuFinding(s, run.first, last))
	}
	return fs
}

// cpuSubjects reads every CPU figure the series offer.
func (c *context) cpuSubjects() []cpuSubject {
	var out []cpuSubject
	for _, s := range c.set.Find("process_cpu_usage") {
		out = append(out, cpuSubject{name: roleName(s), source: s.Key(), label: titled(s), what: "of its CPUs busy", points: s.Points, thresh: cpuBusy})
	}
	for _, name := range []string{"process_cpu_seconds_total", "container_cpu_usage_seconds_total"} {
		for _, s := range c.set.Find(name) {
			used := perSecond(s)
			var fractions []series.Point
			var limit float64
			for _, p := range used {
				if l, _, ok := cpuLimit(c.set, s, p.Sec); ok {
					limit = l
					fractions = append(fractions, series.Point{Sec: p.Sec, Value: p.Value / l})
				}
			}
			if len(fractions) > 0 {
				out = append(out, cpuSubject{name: roleName(s), source: s.Key(), label: titled(s), what: "of " + cores(limit),
					limit: limit, points: fractions, thresh: cpuBusy})
			}
		}
	}
	out = append(out, c.hostCPU()...)
	for _, periods := range c.set.Find("container_cpu_cfs_periods_total") {
		throttled := sibling(c.set, "container_cpu_cfs_throttled_periods_total", periods)
		if throttled == nil {
			continue
		}
		all, held := perSecond(periods), perSecond(throttled)
		var fractions []series.Point
		for _, p := range all {
			if t, ok := valueAt(held, p.Sec); ok && p.Value > 0 {
				fractions = append(fractions, series.Point{Sec: p.Sec, Value: t / p.Value})
			}
		}
		out = append(out, cpuSubject{name: roleName(periods) + " container", source: throttled.Key(), label: titled(throttled),
			what: "of CFS periods throttled by its CPU limit", points: fractions, thresh: cpuThrottled})
	}
	return out
}

// hostCPU reads node_exporter's CPU time by mode into one busy fraction
// per host: 1 − (idle + iowait) / all modes, over all its CPUs. Waiting for
// the disk is not CPU work, so iowait counts as idle.
func (c *context) hostCPU() []cpuSubject {
	type acc struct{ idle, all float64 }
	type host struct {
		first *series.Series
		bySec map[int]*acc
	}
	var hosts []*host
	for _, s := range c.set.Find("node_cpu_seconds_total") {
		var h *host
		for _, o := range hosts {
			if sameLabels(o.first.Labels, s.Labels, []string{"cpu", "mode"}) {
				h = o
			}
		}
		if h == nil {
			h = &host{first: s, bySec: map[int]*acc{}}
			hosts = append(hosts, h)
		}
		mode := s.Label("mode")
		for _, p := range perSecond(s) {
			a := h.bySec[p.Sec]
			if a == nil {
				a = &acc{}
				h.bySec[p.Sec] = a
			}
			a.all += p.Value
			if mode == "idle" || mode == "iowait" {
				a.idle += p.Value
			}
		}
	}
	var out []cpuSubject
	for _, h := range hosts {
		var pts []series.Point
		for sec, a := range h.bySec {
			if a.all > 0 {
				pts = append(pts, series.Point{Sec: sec, Value: 1 - a.idle/a.all})
			}
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
		key := series.Series{Name: "node_cpu_seconds_total", Labels: without(h.first.Labels, []string{"cpu", "mode"})}
		out = append(out, cpuSubject{name: roleName(h.first), source: key.Key(), label: titled(&key), what: "busy", points: pts, thresh: cpuBusy})
	}
	return out
}

func (c *context) cpuFinding(s cpuSubject, first, last int) Finding {
	peak := peakIndex(s.points, first, last)
	from, to := s.points[first].Sec, s.points[last].Sec
	f := Finding{
		Kind: KindCPUSaturation, Severity: Critical, From: from, To: to,
		Title: s.name + " CPU saturated: " + pct(s.points[peak].Value) + " " + s.what + " (" + s.label + ") from " + at(from),
		Evidence: []Evidence{
			{Source: s.source, Sec: from, Value: s.points[first].Value, Text: "first of the saturated scrapes: " + pct(s.points[first].Value) + " " + s.what},
			{Source: s.source, Sec: s.points[peak].Sec, Value: s.points[peak].Value, Text: "highest: " + pct(s.points[peak].Value) + " " + s.what},
		},
		Remedies: remediesFor(KindCPUSaturation),
	}
	if s.limit > 0 {
		f.Evidence = append(f.Evidence, Evidence{Source: CPULimit, Sec: from, Value: s.limit, Text: "the process may use " + cores(s.limit)})
	}
	if e, ok := c.clientAt(s.points[peak].Sec); ok {
		f.Evidence = append(f.Evidence, e)
	}
	return f
}

// clientAt is the evidence of what the client measured at a second: the
// response time and throughput the server-side figure goes with.
func (c *context) clientAt(sec int) (Evidence, bool) {
	for _, s := range c.secs {
		if s.sec == sec {
			return Evidence{Source: "http_req_duration", Sec: sec, Value: s.p95,
				Text: "the client at that second: " + rate(s.x) + ", p95 " + dur(s.p95)}, true
		}
	}
	return Evidence{}, false
}
