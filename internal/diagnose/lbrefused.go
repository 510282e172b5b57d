package diagnose

import (
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// proxyPages are the marks of a proxy's own error page in a failed
// answer's body, and whose page it is: nginx signs its pages
// "<hr><center>nginx/1.22.1</center>", Envoy's local rate limit answers
// "local_rate_limited". An app's 503 passed through a proxy keeps the app's
// body.
var proxyPages = []struct{ mark, who string }{
	{"<center>nginx", "nginx"},
	{"<center>openresty", "OpenResty"},
	{"local_rate_limited", "Envoy"},
}

// lbCounters are the request counters of load balancers and proxies, and
// whose; appCounters those of app servers (Micrometer, Prometheus's
// convention, OpenTelemetry's). Each is summed over its target's series.
var (
	lbCounters = []struct{ name, who string }{
		{"nginx_http_requests_total", "nginx"},
		{"haproxy_frontend_http_requests_total", "HAProxy"},
		{"traefik_entrypoint_requests_total", "Traefik"},
		{"envoy_http_downstream_rq_total", "Envoy"},
	}
	appCounters = []string{"http_server_requests_seconds_count", "http_requests_total", "http_server_request_duration_seconds_count"}
)

// Load-balancer thresholds: the balancer saw at least lbSeen of the
// client's requests, and the app answered fewer by at least lbGap of the
// failures (trial A39: nginx 100 req/s, the app 50, 50 failed per second);
// the app's CPU stayed under threadCPULow of what it may use, or under
// lbIdleCores without a limit: it had room to answer them.
const (
	lbSeen      = 0.8
	lbGap       = 0.5
	lbIdleCores = 0.5
)

// lbRemedies replace the errors' load-level remedies when the load
// balancer refused the requests: its limits, not the app's pools.
var lbRemedies = []string{
	"check the balancer's own limits against the load the test offers: a rate limit (nginx limit_req rate and burst, limit_conn; HAProxy's rate limits and maxconn) refuses what exceeds it by design; raise it for the test, or test at the rate it allows",
	"give it enough connections for the load: worker_connections and worker_processes (nginx), maxconn (HAProxy)",
	"reuse connections to the app (upstream keepalive) and cap them where the app has headroom (max_conns), so the balancer neither runs out of sockets nor floods the app",
}

// lbRefused words the errors as the load balancer's refusals when the
// evidence says so: most sampled failures of the leading kind are a
// proxy's own refusal page (503 or 429), or its own 502 page while the
// backends had headroom (gatewayRefused), or the balancer counted the
// client's requests while the app counted fewer by the failures and its
// CPU idled. An app that answers 503 itself counts them, and its body is
// its own: no refusal then.
func (e *errorStretch) lbRefused() {
	c, b := e.c, e.b
	if len(e.kinds) == 0 || (e.kinds[0] != sample.HTTP5xx && e.kinds[0] != sample.HTTP4xx) {
		return
	}
	who, page, status := c.proxyPage(e.kinds[0])
	var gateway func()
	if status == gatewayStatus {
		var ok bool
		if gateway, ok = e.gatewayRefused(e.kinds[0]); !ok {
			who, page = "", ""
		}
	}
	rateWho, rates, refused := c.lbRates(b, e.from, e.to)
	if who == "" && !refused {
		return
	}
	if who == "" {
		who = rateWho
	}
	n := ref(b.fig(e.kindFigs[0]).Of[0])
	if gateway != nil {
		b.f.Parts = append(b.f.Parts, line(": refused by the load balancer (", name(who), ", its own ", name(strconv.Itoa(gatewayStatus)), "s), not the app")...)
		b.evidence(n, "the failed answers are ", name(who), "'s own ", name(strconv.Itoa(gatewayStatus)), " page, not the app's: ", name(page))
		gateway()
		if rates != nil {
			rates()
		}
		b.f.Remedies = append([]string{mostFailuresLead + who + "'s own 502s, not the app's: it " + gatewayRemedies[0]}, gatewayRemedies[1:]...)
		return
	}
	b.f.Parts = append(b.f.Parts, line(": refused by the load balancer (", name(who), "), not the app")...)
	if page != "" {
		b.evidence(n, "the failed answers are ", name(who), "'s own refusal page, not the app's: ", name(page))
	}
	if rates != nil {
		rates()
	}
	b.f.Remedies = append([]string{mostFailuresLead + who + "'s own refusals, not the app's: " + lbRemedies[0]}, lbRemedies[1:]...)
}

// proxyPage returns the proxy whose own page at least half of the sampled
// failures of kind k are, the shortest mark of it and the status of most
// of them: its refusal (503 or 429, status 503) when those are half, else
// its 502 (gatewayStatus) when its pages are half and the 502s the more;
// "" otherwise.
func (c *context) proxyPage(k sample.Kind) (who, page string, status int) {
	type pages struct {
		who, page string
		marked    int64
	}
	var all int64
	var refusal, gateway pages
	for i := range c.run.Endpoints {
		for _, g := range c.run.Endpoints[i].Errors {
			if g.Kind != k {
				continue
			}
			for _, s := range g.Samples {
				all += s.Count
				at := &refusal
				switch s.Status {
				case 503, 429:
				case gatewayStatus:
					at = &gateway
				default:
					continue
				}
				low := strings.ToLower(s.Message)
				for _, p := range proxyPages {
					if j := strings.Index(low, p.mark); j >= 0 {
						at.marked += s.Count
						at.who, at.page = p.who, pageMark(s.Message, j, len(p.mark))
						break
					}
				}
			}
		}
	}
	switch {
	case refusal.marked > 0 && 2*refusal.marked >= all:
		return refusal.who, refusal.page, 503
	case gateway.marked > refusal.marked && 2*(refusal.marked+gateway.marked) >= all:
		return gateway.who, gateway.page, gatewayStatus
	}
	return "", "", 0
}

// pageMark is the mark at j of msg with the rest of its word (a version):
// "<center>nginx/1.22.1</center>".
func pageMark(msg string, j, n int) string {
	end := j + n
	for end < len(msg) && end-j < 60 && msg[end] != ' ' {
		end++
	}
	return msg[j:end]
}

// lbRates compares the load balancer's request rate with the app's over
// the errors' seconds (medians). It returns whose balancer it is, a
// function that states the rates (nil without a balancer's counter), and
// whether they show the refusals: the balancer saw the client's requests,
// the app counted fewer by the failures, and its CPU idled.
func (c *context) lbRates(b *builder, from, to int) (string, func(), bool) {
	lb, who, role := c.requestRate("", lbCountersNames()...)
	if lb == "" {
		return "", nil, false
	}
	app, _, _ := c.requestRate(role, appCounters...)
	x := c.fig(c.client(SrcRequests), StatMedian, from, to, UnitReqPerSec, "the client's throughput over the errors (median)")
	failed := c.fig(c.client(SrcFailed), StatMedian, from, to, UnitReqPerSec, "requests failed per second over the errors (median)")
	lf := c.fig(lb, StatMedian, from, to, UnitReqPerSec, "requests the load balancer received per second (median)")
	var af Figure
	if app != "" {
		af = c.fig(app, StatMedian, from, to, UnitReqPerSec, "requests the app counted per second (median)")
	}
	cpu, idle := c.appIdle(from, to, role)
	refused := app != "" && idle && failed.Value > 0 && lf.Value >= lbSeen*x.Value && lf.Value-af.Value >= lbGap*failed.Value
	return who, func() {
		l, fr := b.add(lf), b.add(failed)
		if app != "" {
			b.evidence(l, name(who), " received ", l, ", the app counted ", b.add(af), " while ", fr, " failed (medians)")
		} else {
			b.evidence(l, name(who), " received ", l, " of the client's ", b.add(x), ", ", fr, " of them failed (medians): every request passed through it")
		}
		if cpu.Source != "" {
			u := b.add(cpu)
			b.evidence(u, "the app's CPU meanwhile: ", u, " (median): it had room to answer them")
		}
	}, refused
}

// lbCountersNames returns the names of lbCounters.
func lbCountersNames() []string {
	var out []string
	for _, l := range lbCounters {
		out = append(out, l.name)
	}
	return out
}

// requestRate sums the first of names found, over the series of one
// target (its role and target labels), not at role skip: the source, the
// proxy's name (lbCounters) and the role.
func (c *context) requestRate(skip string, names ...string) (src, who, role string) {
	rs := c.requestRates(skip, names...)
	if len(rs) == 0 {
		return "", "", ""
	}
	return rs[0].src, rs[0].who, rs[0].role
}

// targetRate is one target's request rate: its source, the proxy's name
// (lbCounters), its role and target.
type targetRate struct{ src, who, role, target string }

// requestRates sums the first of names found over the series of each
// target (its role and target labels), not at role skip, in key order.
func (c *context) requestRates(skip string, names ...string) []targetRate {
	for _, n := range names {
		groups := map[string][]*series.Series{}
		var keys []string
		for _, s := range c.set.Find(n) {
			if skip != "" && s.Label("role") == skip {
				continue
			}
			k := series.Series{Name: n, Labels: keepLabels(s.Labels, "role", "target")}
			if groups[k.Key()] == nil {
				keys = append(keys, k.Key())
			}
			groups[k.Key()] = append(groups[k.Key()], s)
		}
		sort.Strings(keys)
		var who string
		for _, l := range lbCounters {
			if l.name == n {
				who = l.who
			}
		}
		var out []targetRate
		for _, k := range keys {
			bySec := map[int]float64{}
			for _, s := range groups[k] {
				for _, p := range perSecond(s) {
					bySec[p.Sec] += p.Value
				}
			}
			var pts []series.Point
			for sec, v := range bySec {
				pts = append(pts, series.Point{Sec: sec, Value: v})
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
			g := groups[k][0]
			out = append(out, targetRate{c.define("sum("+k+")", pts), who, g.Label("role"), g.Label("target")})
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// keepLabels returns the labels of ls named in keep.
func keepLabels(ls []series.Label, keep ...string) []series.Label {
	var out []series.Label
	for _, l := range ls {
		for _, k := range keep {
			if l.Name == k {
				out = append(out, l)
			}
		}
	}
	return out
}

// appIdle reports whether the app's processes (not at the balancer's
// role) used less than threadCPULow of their CPU limit, or under
// lbIdleCores without one, and the figure of the first; true with no
// figure when no CPU of theirs was scraped.
func (c *context) appIdle(from, to int, lbRole string) (Figure, bool) {
	for _, s := range c.cpuSubjects() {
		if s.proc == "" || lbRole != "" && strings.Contains(s.label, "role="+lbRole) {
			continue
		}
		f := c.fig(s.source, StatMedian, from, to, UnitFraction, "the app's CPU use, "+s.what+" (median)")
		return f, !(f.Value >= threadCPULow)
	}
	for _, p := range c.processCores() {
		if lbRole != "" && p.s.Label("role") == lbRole {
			continue
		}
		f := c.fig(p.cores, StatMedian, from, to, UnitCores, "cores the app used (median)")
		return f, !(f.Value >= lbIdleCores)
	}
	return Figure{}, true
}
