package diagnose

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/stats"
)

// The client's per-second quantities a figure can come from. Each has a
// value at every second of the run unless said otherwise; filters in
// braces narrow it (docs/findings.md).
const (
	SrcRequests     = "http_reqs"              // requests completed, failed or not; {endpoint, scenario}
	SrcFailed       = "http_req_failed"        // requests failed; {kind} or {endpoint, scenario}
	SrcDuration     = "http_req_duration"      // the latency histogram: quantiles over every second of the run; {endpoint, scenario} or {not_endpoint, not_endpoint_scenario}: every request but the endpoint's (its scenario only when the test has several)
	SrcMean         = "http_req_duration.mean" // mean latency of the second, in seconds; only at seconds with requests
	SrcP50          = "http_req_duration.p50"  // median latency of the second; only at seconds with requests; {endpoint, scenario}
	SrcP95          = "http_req_duration.p95"  // 95th percentile of the second; only at seconds with requests
	SrcVUs          = "vus"                    // the most VUs active at once in the second (closed: running; open: busy in an iteration)
	SrcVUsAvg       = "vus.avg"                // active VUs over the second: the mean of its vus and the previous second's (over a ramp up, the level at its start and end); not at the run's first second
	SrcVUsMax       = "vus_max"                // VUs allocated at the end of the second
	SrcDropped      = "dropped_iterations"     // iterations the open model could not start
	SrcOffered      = "offered"                // open model: requests offered, each arrival-rate scenario's arrivals its schedule offered (recorded by intended start) × its requests per iteration, a closed one's iterations × its; rebuilt from completions for a run.db of an earlier build (offeredSeries)
	SrcLag          = "scheduler_lag.p99"      // 99th percentile of how late iterations started, in seconds
	SrcLagHist      = "scheduler_lag"          // the histogram of how late iterations started, every scenario's merged: quantiles over every second of the run
	SrcCheckFails   = "checks.fails"           // a check's failures; {check, endpoint, scenario} ({check, scenario} for a check of no one endpoint), and status: those on answers of that status
	SrcCheckTotal   = "checks.total"           // a check's outcomes; {check, endpoint, scenario} ({check, scenario} for a check of no one endpoint), and status: those on answers of that status
	SrcCheckNotJSON = "checks.not_json"        // a check's failures on bodies not JSON the decoder reads; {check, endpoint, scenario}
	SrcCheckNoValue = "checks.no_value"        // a check's failures on JSON bodies with no value at its path; {check, endpoint, scenario}
	SrcTruncated    = "truncated_bodies"       // responses whose body was longer than its step's max_body (checks read only the start)
	SrcServer       = "server_series"          // the number of scraped series (not the generator's own): one value, at the run's first second
)

// labelled returns a source with filters: name{k="v",…} in the order given,
// values quoted as Go strings.
func labelled(name string, kv ...string) string {
	if len(kv) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name + "{")
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kv[i] + "=" + strconv.Quote(kv[i+1]))
	}
	b.WriteByte('}')
	return b.String()
}

// values returns a source's per-second values, in second order.
func (c *context) values(src string) []series.Point {
	if pts, ok := c.vals[src]; ok {
		return pts
	}
	return nil
}

// define keeps the values of a source computed by a rule.
func (c *context) define(src string, pts []series.Point) string {
	c.vals[src] = pts
	return src
}

// ofSeries returns the source of a stored series: its key, whose values
// are its points, or a raw counter's increase per second.
func (c *context) ofSeries(s *series.Series) string {
	key := s.Key()
	if _, ok := c.vals[key]; !ok {
		c.vals[key] = perSecond(s)
	}
	return key
}

// client returns a client source, computing its values once.
func (c *context) client(name string, kv ...string) string {
	src := labelled(name, kv...)
	if _, ok := c.vals[src]; ok || c.run == nil {
		return src
	}
	filter := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		filter[kv[i]] = kv[i+1]
	}
	ep := c.endpointIndex(filter["endpoint"], filter["scenario"])
	var pts []series.Point
	for i := range c.run.Series {
		if v, ok := c.clientValue(name, filter, ep, i); ok {
			pts = append(pts, series.Point{Sec: c.run.Series[i].Sec, Value: v})
		}
	}
	c.vals[src] = pts
	return src
}

// clientValue is the value of client source name in the run's second i,
// for the endpoint ep (-1 for all) and the labels of filter; false where
// the second has none (no requests to take a percentile of).
func (c *context) clientValue(name string, filter map[string]string, ep, i int) (float64, bool) {
	rs := c.run.Series
	s := &rs[i]
	switch name {
	case SrcRequests:
		if ep >= 0 {
			return float64(s.PerEndpoint[ep].Requests), true
		}
		return float64(s.Requests), true
	case SrcFailed:
		switch {
		case ep >= 0:
			return float64(s.PerEndpoint[ep].Failed), true
		case filter["kind"] != "":
			return float64(s.Failures[kindByName(filter["kind"])]), true
		default:
			return float64(s.Failed), true
		}
	case SrcMean: // a second whose only ends were sessions' has no latency (metrics.Run.Latency)
		if s.Latencies > 0 {
			return secs(s.Mean), true
		}
	case SrcP50:
		if ep >= 0 {
			if s.PerEndpoint[ep].Requests > 0 {
				return secs(s.PerEndpoint[ep].P50), true
			}
		} else if s.Latencies > 0 {
			return secs(s.P50), true
		}
	case SrcP95:
		if s.Latencies > 0 {
			return secs(s.P95), true
		}
	case SrcVUs:
		return float64(s.VUs), true
	case SrcVUsAvg:
		if i > 0 {
			return float64(rs[i-1].VUs+s.VUs) / 2, true
		}
	case SrcVUsMax:
		return float64(s.VUsMax), true
	case SrcDropped:
		return float64(s.Dropped), true
	case SrcOffered:
		return c.offered[i], true
	case SrcLag:
		return secs(s.LagP99), true
	case SrcTruncated:
		return float64(s.Truncated), true
	case SrcCheckFails, SrcCheckTotal, SrcCheckNotJSON, SrcCheckNoValue:
		var v int64
		found := false
		for _, ck := range c.checkIndexes(filter["check"], filter["endpoint"], filter["scenario"]) {
			if ck < len(s.Checks) {
				found = true
				v += checkCount(name, filter["status"], &s.Checks[ck])
			}
		}
		if found {
			return float64(v), true
		}
	}
	return 0, false
}

// endpointIndex finds an endpoint by name and scenario name; -1 for none.
func (c *context) endpointIndex(endpoint, scenario string) int {
	if endpoint == "" || c.run == nil {
		return -1
	}
	for i, e := range c.run.Layout.Endpoints {
		if e.Name == endpoint && c.scenarioName(e.Scenario) == scenario {
			return i
		}
	}
	return -1
}

// checkIndexes finds the checks of a name, endpoint name ("" for a check
// of no one endpoint) and scenario name. A check of the same name on
// several endpoints is one check per endpoint, as the CHECKS table has it.
func (c *context) checkIndexes(check, endpoint, scenario string) []int {
	var ids []int
	for i, k := range c.run.Layout.Checks {
		if k.Name == check && c.scenarioName(k.Scenario) == scenario && c.checkEndpoint(k.Endpoint) == endpoint {
			ids = append(ids, i)
		}
	}
	return ids
}

// checkEndpoint names a check's endpoint; "" when it has none.
func (c *context) checkEndpoint(ep int32) string {
	if ep < 0 || int(ep) >= len(c.run.Layout.Endpoints) {
		return ""
	}
	return c.run.Layout.Endpoints[ep].Name
}

// checkSource returns the filters naming check i.
func (c *context) checkSource(i int) []string {
	k := c.run.Layout.Checks[i]
	if ep := c.checkEndpoint(k.Endpoint); ep != "" {
		return []string{"check", k.Name, "endpoint", ep, "scenario", c.scenarioName(k.Scenario)}
	}
	return []string{"check", k.Name, "scenario", c.scenarioName(k.Scenario)}
}

func (c *context) scenarioName(i int32) string {
	if i < 0 || int(i) >= len(c.run.Layout.Scenarios) {
		return ""
	}
	return c.run.Layout.Scenarios[i].Name
}

// endpointSource returns the filters naming endpoint i.
func (c *context) endpointSource(i int) []string {
	e := c.run.Layout.Endpoints[i]
	return []string{"endpoint", e.Name, "scenario", c.scenarioName(e.Scenario)}
}

// endpointName names endpoint i for people: its name, and its scenario
// when another scenario has an endpoint of the same name.
func (c *context) endpointName(i int) string {
	e := c.run.Layout.Endpoints[i]
	for j, o := range c.run.Layout.Endpoints {
		if j != i && o.Name == e.Name {
			return e.Name + " (scenario " + c.scenarioName(e.Scenario) + ")"
		}
	}
	return e.Name
}

// has reports whether src has a value at sec.
func (c *context) has(src string, sec int) bool {
	for _, p := range c.values(src) {
		if p.Sec == sec {
			return true
		}
	}
	return false
}

// fig returns a figure of src over the seconds from..to.
func (c *context) fig(src string, st Stat, from, to int, u Unit, what string) Figure {
	return Figure{Value: aggregate(c.values(src), st, from, to), Unit: u, What: what, Source: src, Stat: st, From: from, To: to, Per: c.per(u)}
}

// quantile returns the q-th percentile of the latencies of the whole run,
// of every request or of the endpoints a filter names.
func (c *context) quantile(q float64, u Unit, what string, kv ...string) Figure {
	filter := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		filter[kv[i]] = kv[i+1]
	}
	h := metrics.NewHist()
	notScenario := filter["not_endpoint_scenario"]
	if notScenario == "" && len(c.run.Layout.Scenarios) == 1 {
		notScenario = c.scenarioName(0) // a one-scenario test's label need not name it
	}
	only, except := c.endpointIndex(filter["endpoint"], filter["scenario"]), c.endpointIndex(filter["not_endpoint"], notScenario)
	for i := range c.run.Endpoints {
		if (only >= 0 && i != only) || (only < 0 && !c.run.Latency(i)) || i == except || c.run.Endpoints[i].Duration == nil {
			continue
		}
		h.Merge(c.run.Endpoints[i].Duration)
	}
	first, last := c.run.Series[0].Sec, c.run.Series[len(c.run.Series)-1].Sec
	return Figure{Value: secs(h.Quantile(q)), Unit: u, What: what, Source: labelled(SrcDuration, kv...), Stat: StatQuantile, Q: q, From: first, To: last}
}

// aggregate computes a statistic of the points within from..to.
func aggregate(pts []series.Point, st Stat, from, to int) float64 {
	var xs, ts []float64
	for _, p := range pts {
		if p.Sec >= from && p.Sec <= to {
			xs, ts = append(xs, p.Value), append(ts, float64(p.Sec))
		}
	}
	switch st {
	case StatValue:
		for _, p := range pts {
			if p.Sec == from {
				return p.Value
			}
		}
		return math.NaN()
	case StatCount:
		return float64(len(xs))
	case StatSpan:
		return float64(to - from + 1)
	case StatOnset, StatSecond:
		return float64(from)
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	switch st {
	case StatSum, StatMean:
		var sum float64
		for _, x := range xs {
			sum += x
		}
		if st == StatMean {
			return sum / float64(len(xs))
		}
		return sum
	case StatMedian:
		return stats.Median(xs)
	case StatMax:
		return slicesMax(xs)
	case StatMin:
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		return s[0]
	case StatSlope:
		_, b := theilSen(ts, xs)
		return b
	case StatTau:
		return kendallTau(ts, xs)
	}
	return math.NaN()
}

func slicesMax(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// checkCount is a check source's count in one second's outcomes of a
// check: of the answers of status when it is not "".
func checkCount(name, status string, ck *metrics.CheckTotal) int64 {
	switch name {
	case SrcCheckNotJSON:
		return ck.NotJSON
	case SrcCheckNoValue:
		return ck.NoValue
	}
	passes, fails := ck.Passes, ck.Fails
	if status != "" {
		passes, fails = 0, 0
		for _, st := range ck.Statuses {
			if strconv.Itoa(st.Status) == status {
				passes, fails = st.Passes, st.Fails
			}
		}
	}
	if name == SrcCheckTotal {
		return passes + fails
	}
	return fails
}
