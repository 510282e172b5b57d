package metrics

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// Evaluate judges a threshold on the run as it stands: the one judgement
// the verdict, abort_on_fail and the live dashboard share. A threshold
// with no data fails (threshold.NoData). A latency threshold fails without
// its comparison deciding when the requests it selects give it nothing to
// judge: none was sent, none received a response (timed out, refused,
// reset, cut off …), or none succeeded; and a percentile (med and max
// included) fails when more of them failed than it leaves out — a failed
// request did not meet a latency objective, however fast it failed.
// Aborted is left for the caller.
func (r *Run) Evaluate(t *threshold.Threshold) threshold.Result {
	v, ok := r.Observe(t)
	res := t.Evaluate(v, ok)
	if what := r.missing(t); !ok && what != "" {
		res.Reason += ": " + what
	}
	if !ok && t.Metric == "http_req_tls_handshaking" && r.plain(t) {
		return res // no handshake to time, whatever became of the requests
	}
	ev, judged := r.LatencyEvidence(t)
	if !judged {
		return res
	}
	if why := ev.unjudgeable(t, r.MetricUnit(t.Metric), v, ok); why != "" {
		res.Pass, res.Reason, res.NothingYet = false, why, ev.Sent == 0
	}
	return res
}

// Evidence is what a latency threshold judged: the requests its filter
// selects (for iteration_duration, those of its scenarios), how many
// received a response and how many succeeded.
type Evidence struct {
	Sent, Answered, Succeeded int64
}

// Failed returns how many of the requests failed.
func (e Evidence) Failed() int64 { return e.Sent - e.Succeeded }

// LatencyEvidence returns the requests a latency threshold judges, and
// false for any other threshold: a latency count (which counts requests,
// whatever became of them) and scheduler_lag (the generator's own delay,
// not the target's) included.
func (r *Run) LatencyEvidence(t *threshold.Threshold) (Evidence, bool) {
	var eps []int
	switch {
	case t.Agg == threshold.Count:
		return Evidence{}, false
	case t.Metric == "iteration_duration":
		scs, ok := r.selectScenarios(t.Filter)
		if !ok {
			return Evidence{}, false
		}
		for i, e := range r.Layout.Endpoints {
			for _, s := range scs {
				if int(e.Scenario) == s {
					eps = append(eps, i)
				}
			}
		}
	case hasTag(t.Filter, "status"):
		return Evidence{}, false // the requests answered with a status: each was answered, whatever it says
	case t.Metric == "http_req_duration" || t.Metric == "http_req_waiting":
		var ok bool
		if eps, ok = r.selectRequests(t.Filter); !ok {
			return Evidence{}, false
		}
	case isRequestLatency(t.Metric):
		var ok bool
		if eps, ok = r.selectEndpoints(t.Filter, false); !ok {
			return Evidence{}, false
		}
	case isCallLatency(t.Metric): // grpc_req_duration: the protocol's endpoints' calls, as http_req_duration's requests
		proto, _, _ := sample.FactMetric(t.Metric)
		all, ok := r.selectEndpoints(t.Filter, false)
		if !ok {
			return Evidence{}, false
		}
		for _, i := range all {
			if r.Layout.Endpoints[i].Protocol == proto {
				eps = append(eps, i)
			}
		}
	default:
		return Evidence{}, false
	}
	var ev Evidence
	for _, i := range eps {
		e := &r.Endpoints[i]
		ev.Sent += e.Requests
		ev.Answered += e.Requests
		ev.Succeeded += e.Requests
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			ev.Succeeded -= e.Failures[k]
			if !responded(k) {
				ev.Answered -= e.Failures[k]
			}
		}
	}
	return ev, true
}

// unjudgeable says why a latency threshold cannot pass on this evidence,
// or "" when its comparison decides, counting in u (requests, calls,
// sessions). A percentile failed for its failures still shows the value v
// it observed (when observed), so the reader sees how slow the rest was too.
func (e Evidence) unjudgeable(t *threshold.Threshold, u units.Unit, v float64, observed bool) string {
	u = u.Or()
	switch {
	case e.Sent == 0:
		if t.Metric == "iteration_duration" {
			return "no " + u.One + " sent: no iteration to judge"
		}
		return "no " + u.One + " sent"
	case e.Answered == 0:
		return "no completed " + u.One + " (" + units.Count(e.Sent) + " sent)"
	case e.Succeeded == 0:
		return "every " + u.One + " failed (" + units.Count(e.Sent) + " sent): no latency to judge"
	}
	leftOut, ok := threshold.LeavesOut(t.Agg, t.P)
	if !ok || t.Metric != "http_req_duration" && t.Metric != "http_req_waiting" && !isCallLatency(t.Metric) || ExpectedOnly(t) {
		return "" // expected_response:true judges the successes alone, as k6 does: pair it with http_req_failed
	}
	share := float64(e.Failed()) / float64(e.Sent)
	if share <= leftOut {
		return ""
	}
	why := fmt.Sprintf("%s of %s failed (%s): more than the %s %s leaves out",
		units.Count(e.Failed()), u.Count(e.Sent), units.Percent(share), units.Percent(leftOut), t.AggName())
	if observed {
		// The value is the histogram's over every selected request (Observe): failed ones are in it.
		why += fmt.Sprintf("; %s=%s over all %s, failed ones included", t.AggName(),
			units.Duration(time.Duration(v*float64(time.Millisecond))), u.Count(e.Sent))
	}
	return why
}

// missing says what a threshold's metric with no data lacked, for its reason.
func (r *Run) missing(t *threshold.Threshold) string {
	if t.Custom != nil {
		return "no value added"
	}
	for _, f := range t.Filter {
		if f.Key == "status" {
			return "no response with status " + f.Value
		}
	}
	switch t.Metric {
	case "http_req_connecting":
		return "no new connection"
	case "http_req_tls_handshaking":
		if r.plain(t) {
			return "no TLS handshake (plain http)"
		}
		return "no TLS handshake"
	case "scheduler_lag":
		if !r.openModel(t) {
			return "measured only in the open model (arrival-rate)"
		}
	case "checks":
		return "no check ran"
	case "http_req_duration", "http_req_waiting":
		if what := r.notRequests(t); what != "" {
			return what
		}
		return "no request sent"
	case "http_req_failed", "http_reqs": // every sample: a gRPC run's calls, a WebSocket run's sessions
		return "no " + r.Unit().One + " sent"
	case "iteration_duration":
		return "no iteration completed"
	case "group_duration":
		return "no group completed"
	}
	return ""
}

// hasTag reports whether a filter has a tag of key.
func hasTag(filter []threshold.Tag, key string) bool {
	for _, f := range filter {
		if f.Key == key {
			return true
		}
	}
	return false
}

// plain reports whether every endpoint a threshold selects is plain http.
func (r *Run) plain(t *threshold.Threshold) bool {
	eps, ok := r.selectEndpoints(t.Filter, false)
	if !ok {
		return false
	}
	for _, i := range eps {
		if !r.Layout.Endpoints[i].Plain {
			return false
		}
	}
	return true
}

// openModel reports whether a scenario a threshold selects is an open model.
func (r *Run) openModel(t *threshold.Threshold) bool {
	scs, _ := r.selectScenarios(t.Filter)
	for _, i := range scs {
		if r.Layout.Scenarios[i].Model == "arrival-rate" {
			return true
		}
	}
	return false
}

// isRequestLatency reports whether a metric is a time of each request.
func isRequestLatency(metric string) bool {
	switch metric {
	case "http_req_duration", "http_req_waiting", "http_req_connecting", "http_req_tls_handshaking":
		return true
	}
	return false
}

// isCallLatency reports whether a metric is a session protocol's calls'
// durations (grpc_req_duration): a failed call is no fast one there either.
func isCallLatency(metric string) bool {
	_, f, ok := sample.FactMetric(metric)
	return ok && f == sample.FactReqDuration
}

// responded reports whether a request that ended with kind k received a
// response: a status (an error status or a redirect that was not followed
// included), as opposed to a transport failure or a request cut off.
func responded(k sample.Kind) bool {
	switch k {
	case sample.OK, sample.HTTP4xx, sample.HTTP5xx, sample.Redirect:
		return true
	case sample.GRPCCancelled, sample.GRPCDeadlineExceeded: // the call ended before an answer
		return false
	}
	// Any other gRPC status is the server's answer (a connection never made is conn_refused, dns or tls).
	return k >= sample.GRPCCancelled && k <= sample.GRPCUnauthenticated
}

// notRequests says, when a request latency threshold selects only
// sessions or calls, which metric holds them instead; "" otherwise.
func (r *Run) notRequests(t *threshold.Threshold) string {
	eps, _ := r.selectEndpoints(t.Filter, false)
	if len(eps) == 0 {
		return ""
	}
	var instead []string
	for _, i := range eps {
		e := &r.Layout.Endpoints[i]
		if e.Protocol == "" {
			return ""
		}
		m := e.Protocol + "_" + string(sample.FactReqDuration)
		if e.Session {
			m = e.Protocol + "_" + string(sample.FactSession)
		}
		if !slices.Contains(instead, m) {
			instead = append(instead, m)
		}
	}
	return "no HTTP request: " + t.Metric + " holds HTTP requests only, and the endpoints selected are measured by " + strings.Join(instead, ", ")
}
