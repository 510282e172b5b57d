package diagnose

import "github.com/loadlens/loadlens/internal/series"

// Bounds of the restarts finding: how many containers its title names and
// how many restart seconds a line lists; the rest are in run.db.
const (
	restartsTitled = 3
	restartSecs    = 5
)

// restarted is one container that restarted during the run.
type restarted struct {
	s     *series.Series // its restart count (kube-state-metrics) or OOM count (cAdvisor)
	src   string         // increase(KEY) of s
	secs  []int          // the scrapes at which it rose
	oom   *series.Series // what says it was OOM-killed, or nil
	ooms  bool           // s itself counts OOM kills (cAdvisor without kube-state-metrics)
	first int
}

// podRestarts finds containers that restarted or were OOM-killed while
// the load ran. A count that was already there when the run started
// (restarts before the test) is not a restart during it: only a rise
// between two scrapes of the run counts.
func podRestarts(c *context) []Finding {
	var hits []restarted
	for _, s := range c.set.Find(kubeRestarts) {
		if h, ok := c.rises(s); ok {
			h.oom = c.oomEvidence(s, h.first)
			hits = append(hits, h)
		}
	}
	for _, s := range c.set.Find(containerOOM) {
		if c.coveredBy(hits, s) {
			continue
		}
		if h, ok := c.rises(s); ok {
			h.ooms = true
			hits = append(hits, h)
		}
	}
	if len(hits) == 0 {
		return nil
	}
	return []Finding{c.restartsFinding(hits)}
}

// rises returns the scrapes at which a count kept as its value rose.
func (c *context) rises(s *series.Series) (restarted, bool) {
	src, pts := c.increase(s)
	h := restarted{s: s, src: src}
	for _, p := range pts {
		if p.Value > 0 {
			h.secs = append(h.secs, p.Sec)
		}
	}
	if len(h.secs) == 0 {
		return h, false
	}
	h.first = h.secs[0]
	return h, true
}

// oomEvidence returns what shows a restarted container was OOM-killed:
// kube-state-metrics' last terminated reason OOMKilled from the restart on,
// else cAdvisor's OOM count rising during the run; nil for neither.
func (c *context) oomEvidence(s *series.Series, from int) *series.Series {
	same := func(o *series.Series) bool {
		return o.Label("namespace") == s.Label("namespace") && o.Label("pod") == s.Label("pod") && o.Label("container") == s.Label("container")
	}
	for _, o := range c.set.Find(kubeLastReason) {
		if same(o) && o.Label("reason") == "OOMKilled" {
			for _, p := range o.Points {
				if p.Sec >= from && p.Value > 0 {
					return o
				}
			}
		}
	}
	for _, o := range c.set.Find(containerOOM) {
		if _, ok := c.rises(o); ok && same(o) {
			return o
		}
	}
	return nil
}

// coveredBy reports whether an OOM count belongs to a container already
// found restarting, so the kill is not counted a second time.
func (c *context) coveredBy(hits []restarted, s *series.Series) bool {
	for _, h := range hits {
		if h.oom == s || (h.s.Label("namespace") == s.Label("namespace") && h.s.Label("pod") == s.Label("pod") &&
			h.s.Label("container") == s.Label("container")) {
			return true
		}
	}
	return false
}

func (c *context) restartsFinding(hits []restarted) Finding {
	sev := Warning
	for _, h := range hits {
		if h.oom != nil || h.ooms {
			sev = Critical
		}
	}
	b := newBuilder(KindPodRestarts, sev)
	from, to := hits[0].first, hits[0].first
	title := []any{"Pods restarted during the run: "}
	for i, h := range hits {
		last := h.secs[len(h.secs)-1]
		from, to = min(from, h.first), max(to, last)
		n := b.add(c.fig(h.src, StatSum, h.first, last, UnitCount, "times it restarted during the run (rises of "+h.s.Name+")"))
		pod := h.s.Label("pod")
		if pod == "" {
			pod = titled(h.s)
		}
		why := ""
		switch {
		case h.ooms:
			why = " (OOM-killed)"
		case h.oom != nil:
			why = " (OOMKilled)"
		}
		if i < restartsTitled {
			if i > 0 {
				title = append(title, ", ")
			}
			title = append(title, name(pod), " ×", n, why)
		}
		line := []any{name(pod), " (container ", name(h.s.Label("container")), "): ", n, " at "}
		for j, sec := range h.secs[:min(len(h.secs), restartSecs)] {
			if j > 0 {
				line = append(line, ", ")
			}
			line = append(line, b.second(sec, StatSecond, "a scrape at which the count rose"))
		}
		switch {
		case h.ooms:
			line = append(line, " (", name(h.s.Name), ": killed for using more memory than its limit)")
		case h.oom != nil:
			line = append(line, "; last terminated: OOMKilled (", name(h.oom.Name), ")")
		}
		b.evidence(n, line...)
	}
	if len(hits) > restartsTitled {
		title = append(title, " and others")
	}
	b.title(title...)
	return b.done(from, to)
}
