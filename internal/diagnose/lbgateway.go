package diagnose

import (
	"math"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
)

// gatewayStatus is the status of a proxy's own page when it found no
// backend to pass a request to: every server at its connection limit
// (nginx's "no live upstreams"), marked down, or refusing the connection.
// Unlike a 503 or 429 of its rate limit, the page alone does not say whose
// limit it was: the backends' own figures must.
const gatewayStatus = 502

// gwSlack is how many percentiles either side of the failures' share the
// latencies must jump: the share is rounded to a tenth, and a few slow
// failures or fast successes move the jump by less than one.
const gwSlack = 1.0

// gatewayRemedies replace the errors' load-level remedies when a proxy's
// own 502s came while its backends had headroom.
var gatewayRemedies = []string{
	"found no backend to pass them to while the backends had headroom: every server at the proxy's own connection limit (nginx upstream max_conns, HAProxy's server maxconn, an ingress' upstream limits) or marked down by its health checks (max_fails and fail_timeout); its error log says which (nginx: \"no live upstreams\")",
	"raise the per-backend connection limit to what the backends can serve, or let the proxy queue a request for a free connection (HAProxy's maxqueue and timeout queue, nginx's upstream queue) instead of refusing it",
	"reuse connections to the backends (upstream keepalive) so that each request does not open one",
}

// gatewayRefused reports whether a proxy's own 502s of kind k were its
// refusals, with a function that states the evidence: the failures were
// the fastest requests (the proxy answered them without a backend's work),
// every backend scraped was up and had CPU to spare, and the backends'
// request counters, if any, read fewer than the client's requests by at
// least lbGap of the failures: they never saw the failed requests.
func (e *errorStretch) gatewayRefused(k sample.Kind) (func(), bool) {
	c := e.c
	_, _, lbRole := c.requestRate("", lbCountersNames()...)
	fast, ok := c.failuresFastest(k)
	if !ok {
		return nil, false
	}
	cpus, ok := c.backendsIdle(e.from, e.to, lbRole)
	if !ok || !c.backendsUp(e.from, e.to, lbRole) {
		return nil, false
	}
	counted, ok := c.backendsCounted(e.from, e.to, lbRole)
	if !ok {
		return nil, false
	}
	return func() {
		b := e.b
		fast(b)
		for _, u := range cpus {
			r := b.add(u.f)
			b.evidence(r, name(u.who), "'s CPU meanwhile: ", r, strings.TrimRight(" "+u.what, " ")+" (median): it had room to answer them")
		}
		if counted != nil {
			counted(b)
		}
	}, true
}

// failuresFastest reports whether the failures of kind k on the endpoint
// with the most of them were its fastest requests: its latencies jump
// biGap-fold (and by biAbs) within gwSlack percentiles of the failures'
// share, as they do between a proxy's own answer and a backend's. It
// returns the function that states it.
func (c *context) failuresFastest(k sample.Kind) (func(*builder), bool) {
	ep, most := -1, int64(0)
	for i := range c.run.Endpoints {
		if n := c.run.Endpoints[i].Failures[k]; n > most && c.run.Endpoints[i].Duration != nil {
			ep, most = i, n
		}
	}
	if ep < 0 || c.run.Endpoints[ep].Duration.Count() < biMinSamples {
		return nil, false
	}
	h := c.run.Endpoints[ep].Duration
	q := math.Round(1000*float64(most)/float64(h.Count())) / 10 // the failures' share as a percentile, to a tenth
	if q-gwSlack < biLow || q+gwSlack > biHigh {
		return nil, false // a mode of under 5 % is no mode (bimodal.go)
	}
	lo, hi := secs(h.Quantile(q-gwSlack)), secs(h.Quantile(q+gwSlack))
	if lo <= 0 || hi < biGap*lo || hi-lo < biAbs {
		return nil, false
	}
	kv := c.endpointSource(ep)
	return func(b *builder) {
		l := b.add(c.quantile(q-gwSlack, UnitDuration, "the latency just below the failures' share", kv...))
		u := b.add(c.quantile(q+gwSlack, UnitDuration, "the latency just above the failures' share", kv...))
		fm := b.add(c.quantile(q/2, UnitDuration, "the median of the fastest requests, as many as failed", kv...))
		sm := b.add(c.quantile((q+100)/2, UnitDuration, "the median of the other requests", kv...))
		b.evidence(fm, "the fastest ", name(strconv.FormatFloat(q, 'f', -1, 64)+"%"), " of ", name(c.endpointName(ep)),
			", as many as failed, took ", fm, " (", name(QuantileName(q/2)), "), the rest ", sm, " (", name(QuantileName((q+100)/2)), "); ",
			name(QuantileName(q-gwSlack)), " ", l, ", ", name(QuantileName(q+gwSlack)), " ", u, ": the proxy answered them without a backend's work")
	}, true
}

// backendCPU is a backend's CPU figure and whose it is.
type backendCPU struct {
	who, what string // what: how its fraction reads ("of its CPU limit"); "" in cores
	f         Figure
}

// backendsIdle returns the CPU of every process and host scraped, not at
// the balancer's role lbRole nor the generator's, and whether each used
// under threadCPULow of what it may use (under lbIdleCores without a
// limit): room to serve more. False when none was scraped: nothing shows
// the backends had headroom.
func (c *context) backendsIdle(from, to int, lbRole string) ([]backendCPU, bool) {
	var out []backendCPU
	seen := map[string]bool{}
	other := func(label string) bool {
		return strings.Contains(label, "role=generator") || lbRole != "" && strings.Contains(label, "role="+lbRole)
	}
	for _, s := range c.cpuSubjects() {
		if other(s.label) {
			continue
		}
		who := subjectName(s)
		seen[s.proc] = s.proc != ""
		f := c.fig(s.source, StatMedian, from, to, UnitFraction, who+"'s CPU use, "+s.what+" (median)")
		if !(f.Value < threadCPULow) {
			return nil, false
		}
		out = append(out, backendCPU{who, s.what, f})
	}
	for _, p := range c.processCores() {
		if seen[procOf(p.s)] || other(titled(p.s)) {
			continue
		}
		who := roleName(p.s)
		if t := p.s.Label("target"); t != "" {
			who = t
		}
		f := c.fig(p.cores, StatMedian, from, to, UnitCores, "cores "+who+" used (median)")
		if !(f.Value < lbIdleCores) {
			return nil, false
		}
		out = append(out, backendCPU{who, "", f})
	}
	return out, len(out) > 0
}

// subjectName names a CPU subject as its scrape does: its target ("be1"),
// else its role's name.
func subjectName(s cpuSubject) string {
	if s.proc != "" {
		return s.proc[strings.IndexByte(s.proc, '=')+1:]
	}
	for _, l := range s.host {
		if l.Name == "target" {
			return l.Value
		}
	}
	return s.name
}

// backendsUp reports whether every target scraped, but the balancer and
// the generator, answered each scrape over the errors: a backend down
// makes the proxy's 502s its, not the proxy's limit.
func (c *context) backendsUp(from, to int, lbRole string) bool {
	for _, s := range c.set.Find("up") {
		if r := s.Label("role"); r == "generator" || lbRole != "" && r == lbRole {
			continue
		}
		if v := aggregate(s.Points, StatMin, from, to); !math.IsNaN(v) && v < 1 {
			return false
		}
	}
	return true
}

// backendsCounted compares the backends' request counters, summed over
// them (medians over the errors), with the client's requests: true when
// there are none, or they read fewer by at least lbGap of the failures,
// with the function that states them.
func (c *context) backendsCounted(from, to int, lbRole string) (func(*builder), bool) {
	rs := c.requestRates(lbRole, appCounters...)
	if len(rs) == 0 {
		return nil, true
	}
	x := c.fig(c.client(SrcRequests), StatMedian, from, to, UnitReqPerSec, "the client's throughput over the errors (median)")
	failed := c.fig(c.client(SrcFailed), StatMedian, from, to, UnitReqPerSec, "requests failed per second over the errors (median)")
	var figs []Figure
	sum := 0.0
	for _, r := range rs {
		f := c.fig(r.src, StatMedian, from, to, UnitReqPerSec, "requests "+r.target+" counted per second (median)")
		figs, sum = append(figs, f), sum+f.Value
	}
	if !(x.Value-sum >= lbGap*failed.Value) {
		return nil, false
	}
	return func(b *builder) {
		parts := []any{"the backends counted "}
		var first ref
		for i, f := range figs {
			r := b.add(f)
			if i == 0 {
				first = r
			} else {
				parts = append(parts, ", ")
			}
			parts = append(parts, name(rs[i].target), " ", r)
		}
		parts = append(parts, " of the client's ", b.add(x), " while ", b.add(failed), " failed (medians): the failed requests never reached them")
		b.evidence(first, parts...)
	}, true
}
