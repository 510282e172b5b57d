package metrics

import (
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// Observe returns the value a threshold compares, k6-style, and whether
// anything was recorded for its selection. Filters select endpoints by
// scenario, endpoint (alias name) and method; checks by check, scenario,
// endpoint and method; scenarios by scenario. Selected histograms are
// merged, then aggregated.
//
//   - http_req_duration, http_req_waiting, iteration_duration, scheduler_lag:
//     p(N), avg, min, max, med in milliseconds; count is the number of samples.
//   - http_req_connecting, http_req_tls_handshaking: avg and max in
//     milliseconds over new connections / handshakes, count; no percentiles.
//   - http_req_failed: rate = failures / requests; a kind filter such as
//     kind:"timeout" counts only that kind's failures.
//   - checks: rate = passes / (passes + fails).
//   - http_reqs (also with a kind filter), iterations, dropped_iterations, iterations_not_sent,
//     data_sent, data_received: count, and rate = count per second of Elapsed.
//   - vus: value (last), min, max; vus_max: value and max (most allocated).
//
// hasData is false for an unknown metric, a filter key or aggregation the
// metric does not support, a selection that matches nothing, and a
// selection with nothing recorded (a counter that stayed 0 has data: 0).
func (r *Run) Observe(t *threshold.Threshold) (value float64, hasData bool) {
	if t.Custom != nil {
		return r.observeCustom(t)
	}
	switch t.Metric {
	case "http_req_duration", "http_req_waiting":
		eps, ok := r.selectRequests(t.Filter)
		if !ok {
			return 0, false
		}
		expected := ExpectedOnly(t)
		status, kept := r.statusFilter(t.Filter)
		if !kept {
			return 0, false
		}
		h := mergeSelected(len(eps), func(i int) *Hist {
			switch {
			case status >= 0:
				if bs := r.Endpoints[eps[i]].ByStatus; status < len(bs) {
					return bs[status].Duration
				}
				return nil
			case t.Metric == "http_req_waiting":
				return r.Endpoints[eps[i]].Waiting
			case expected:
				return r.Endpoints[eps[i]].Expected
			}
			return r.Endpoints[eps[i]].Duration
		})
		return trendValue(h, t)
	case "iteration_duration", "scheduler_lag":
		scs, ok := r.selectScenarios(t.Filter)
		if !ok {
			return 0, false
		}
		h := mergeSelected(len(scs), func(i int) *Hist {
			if t.Metric == "scheduler_lag" {
				return r.Scenarios[scs[i]].Lag
			}
			return r.Scenarios[scs[i]].IterationDuration
		})
		return trendValue(h, t)
	case "group_duration":
		gs, ok := r.selectGroups(t.Filter)
		if !ok {
			return 0, false
		}
		return trendValue(mergeSelected(len(gs), func(i int) *Hist { return r.Groups[gs[i]].Duration }), t)
	case "http_req_connecting", "http_req_tls_handshaking":
		return r.observeHandshake(t)
	case "http_req_failed", "http_reqs", "data_sent", "data_received":
		return r.observeRequests(t)
	case "checks":
		return r.observeChecks(t)
	case "iterations", "dropped_iterations", "iterations_not_sent":
		scs, ok := r.selectScenarios(t.Filter)
		if !ok {
			return 0, false
		}
		var n int64
		for _, i := range scs {
			switch t.Metric {
			case "iterations":
				n += r.Scenarios[i].Iterations
			case "dropped_iterations":
				n += r.Scenarios[i].Dropped
			default: // iterations a request not sent ended (docs/accounting.md)
				n += r.Scenarios[i].NotSent
			}
		}
		return r.counterValue(n, t)
	case "vus", "vus_max":
		return r.observeVUs(t)
	}
	if proto, f, ok := sample.FactMetric(t.Metric); ok {
		return r.observeFact(proto, f, t)
	}
	return 0, false
}

// ms converts a duration to the float milliseconds thresholds use.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// mergeSelected merges n histograms, without copying when there is one.
func mergeSelected(n int, hist func(i int) *Hist) *Hist {
	if n == 1 {
		return hist(0)
	}
	var merged *Hist
	for i := range n {
		merged = mergeHist(merged, hist(i))
	}
	return merged
}

func trendValue(h *Hist, t *threshold.Threshold) (float64, bool) {
	if h.Count() == 0 {
		return 0, false
	}
	switch t.Agg {
	case threshold.Percentile:
		return ms(h.Quantile(t.P)), true
	case threshold.Avg:
		return ms(h.Mean()), true
	case threshold.Min:
		return ms(h.Min()), true
	case threshold.Max:
		return ms(h.Max()), true
	case threshold.Med:
		return ms(h.Quantile(50)), true
	case threshold.Count:
		return float64(h.Count()), true
	}
	return 0, false
}

// counterValue aggregates a counter: its count, or its rate per second. A
// count of 0 is data: dropped_iterations: count<1 passes on none dropped.
func (r *Run) counterValue(n int64, t *threshold.Threshold) (float64, bool) {
	switch t.Agg {
	case threshold.Count:
		return float64(n), true
	case threshold.Rate:
		if secs := r.Elapsed().Seconds(); secs > 0 {
			return float64(n) / secs, true
		}
	}
	return 0, false
}

func (r *Run) observeHandshake(t *threshold.Threshold) (float64, bool) {
	eps, ok := r.selectEndpoints(t.Filter, false)
	if !ok {
		return 0, false
	}
	var sum, most time.Duration
	var n int64
	for _, i := range eps {
		e := &r.Endpoints[i]
		if t.Metric == "http_req_connecting" {
			sum, n, most = sum+e.ConnectSum, n+e.Connects, max(most, e.ConnectMax)
		} else {
			sum, n, most = sum+e.TLSSum, n+e.TLSHandshakes, max(most, e.TLSMax)
		}
	}
	if n == 0 {
		return 0, false
	}
	switch t.Agg {
	case threshold.Avg:
		return ms(sum) / float64(n), true
	case threshold.Max:
		return ms(most), true
	case threshold.Count:
		return float64(n), true
	}
	return 0, false
}

func (r *Run) observeRequests(t *threshold.Threshold) (float64, bool) {
	kindAllowed := t.Metric == "http_req_failed" || t.Metric == "http_reqs"
	eps, ok := r.selectEndpoints(t.Filter, kindAllowed)
	if !ok {
		return 0, false
	}
	kind, byKind := filterKind(t.Filter)
	status, kept := r.statusFilter(t.Filter)
	if !kept {
		return 0, false
	}
	var requests, failed, sent, received int64
	for _, i := range eps {
		e := &r.Endpoints[i]
		if status >= 0 { // http_reqs{status:...}: the requests answered with it
			if status < len(e.ByStatus) {
				requests += e.ByStatus[status].Requests
			}
			continue
		}
		requests += e.Requests
		sent += e.Sent
		received += e.Received
		switch {
		case !byKind:
			failed += totalFailures(&e.Failures)
		case kind == sample.OK:
			failed += e.Requests - totalFailures(&e.Failures)
		default:
			failed += e.Failures[kind]
		}
	}
	switch t.Metric {
	case "http_req_failed":
		if requests == 0 || t.Agg != threshold.Rate {
			return 0, false
		}
		return float64(failed) / float64(requests), true
	case "http_reqs":
		if byKind {
			return r.counterValue(failed, t)
		}
		return r.counterValue(requests, t)
	case "data_sent":
		return r.counterValue(sent, t)
	default:
		return r.counterValue(received, t)
	}
}

func (r *Run) observeChecks(t *threshold.Threshold) (float64, bool) {
	var passes, fails int64
	matched := false
	for i, c := range r.Layout.Checks {
		ok, supported := r.checkMatches(c, t.Filter)
		if !supported {
			return 0, false
		}
		if ok {
			matched = true
			passes += r.Checks[i].Passes
			fails += r.Checks[i].Fails
		}
	}
	if !matched || passes+fails == 0 || t.Agg != threshold.Rate {
		return 0, false
	}
	return float64(passes) / float64(passes+fails), true
}

func (r *Run) observeVUs(t *threshold.Threshold) (float64, bool) {
	if len(r.Series) == 0 {
		return 0, false
	}
	var last, lo, hi, allocated int64
	if len(t.Filter) == 0 {
		// Without a filter the gauge is the sum over scenarios per second.
		last, lo, hi = r.VUs()
		for _, s := range r.Series {
			allocated = max(allocated, s.VUsMax)
		}
	} else {
		scs, ok := r.selectScenarios(t.Filter)
		if !ok {
			return 0, false
		}
		for _, i := range scs {
			s := &r.Scenarios[i]
			last, lo, hi, allocated = last+s.VUsLast, lo+s.VUsMin, hi+s.VUsMax, allocated+s.VUsMaxAllocated
		}
	}
	if t.Metric == "vus_max" {
		if t.Agg == threshold.Value || t.Agg == threshold.Max {
			return float64(allocated), true
		}
		return 0, false
	}
	switch t.Agg {
	case threshold.Value:
		return float64(last), true
	case threshold.Min:
		return float64(lo), true
	case threshold.Max:
		return float64(hi), true
	}
	return 0, false
}

// selectEndpoints returns the endpoints matching every filter; ok is false
// when a filter key is not supported, or nothing matches.
func (r *Run) selectEndpoints(filter []threshold.Tag, kindAllowed bool) (eps []int, ok bool) {
	for _, f := range filter {
		switch f.Key {
		case "scenario", "endpoint", "name", "method", "group", "expected_response", "status":
		case "kind":
			if _, known := sample.ParseKind(f.Value); !kindAllowed || !known {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	for i, e := range r.Layout.Endpoints {
		if r.endpointMatches(e, filter) {
			eps = append(eps, i)
		}
	}
	return eps, len(eps) > 0
}

// selectRequests selects the HTTP endpoints a filter matches: what
// http_req_duration and http_req_waiting hold, as in k6, where a session
// (sse_session_duration, ws_session_duration) or a call (grpc_req_duration)
// has its own metric.
func (r *Run) selectRequests(filter []threshold.Tag) (eps []int, ok bool) {
	all, _ := r.selectEndpoints(filter, false)
	for _, i := range all {
		if r.Layout.Endpoints[i].Protocol == "" {
			eps = append(eps, i)
		}
	}
	return eps, len(eps) > 0
}

func (r *Run) endpointMatches(e sample.EndpointInfo, filter []threshold.Tag) bool {
	for _, f := range filter {
		switch f.Key {
		case "scenario":
			if r.scenarioName(e.Scenario) != f.Value {
				return false
			}
		case "endpoint":
			if e.Name != f.Value {
				return false
			}
		case "name": // k6's name tag: the endpoint's name without its method, or with it
			if e.Name != f.Value && strings.TrimPrefix(e.Name, e.Method+" ") != f.Value {
				return false
			}
		case "method":
			if !strings.EqualFold(e.Method, f.Value) {
				return false
			}
		case "group":
			if e.Group != f.Value {
				return false
			}
		}
	}
	return true
}

// checkMatches reports whether check c matches the filter; supported is
// false for a filter key checks do not have.
func (r *Run) checkMatches(c sample.CheckInfo, filter []threshold.Tag) (ok, supported bool) {
	ok = true
	for _, f := range filter {
		switch f.Key {
		case "check":
			ok = ok && c.Name == f.Value
		case "scenario":
			ok = ok && r.scenarioName(c.Scenario) == f.Value
		case "endpoint", "name", "method":
			if c.Endpoint < 0 || int(c.Endpoint) >= len(r.Layout.Endpoints) {
				ok = false
				continue
			}
			ok = ok && r.endpointMatches(r.Layout.Endpoints[c.Endpoint], []threshold.Tag{f})
		default:
			return false, false
		}
	}
	return ok, true
}

// selectScenarios returns the scenarios matching a scenario filter.
func (r *Run) selectScenarios(filter []threshold.Tag) (scs []int, ok bool) {
	for _, f := range filter {
		if f.Key != "scenario" {
			return nil, false
		}
	}
	for i, s := range r.Layout.Scenarios {
		matches := true
		for _, f := range filter {
			matches = matches && s.Name == f.Value
		}
		if matches {
			scs = append(scs, i)
		}
	}
	return scs, len(scs) > 0
}

// selectGroups returns the flow groups a group_duration filter selects
// (by group and scenario), and false when it selects none.
func (r *Run) selectGroups(filter []threshold.Tag) (gs []int, ok bool) {
	for i, g := range r.Layout.Groups {
		matches := i < len(r.Groups)
		for _, f := range filter {
			switch f.Key {
			case "group":
				matches = matches && g.Name == f.Value
			case "scenario":
				matches = matches && r.scenarioName(g.Scenario) == f.Value
			default:
				matches = false
			}
		}
		if matches {
			gs = append(gs, i)
		}
	}
	return gs, len(gs) > 0
}

// ExpectedOnly reports whether a threshold judges only successful
// requests: http_req_duration{expected_response:true}, as in k6.
func ExpectedOnly(t *threshold.Threshold) bool {
	for _, f := range t.Filter {
		if f.Key == "expected_response" {
			return f.Value == "true"
		}
	}
	return false
}

func (r *Run) scenarioName(i int32) string {
	if i < 0 || int(i) >= len(r.Layout.Scenarios) {
		return ""
	}
	return r.Layout.Scenarios[i].Name
}

// filterKind returns the outcome kind a filter selects, if any.
func filterKind(filter []threshold.Tag) (sample.Kind, bool) {
	for _, f := range filter {
		if f.Key == "kind" {
			return sample.ParseKind(f.Value)
		}
	}
	return 0, false
}
