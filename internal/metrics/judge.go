package metrics

import (
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// Evaluate judges a threshold on the run as it stands: the one judgement
// the verdict, abort_on_fail and the live dashboard share. A threshold with
// no data passes, as in k6, but only when nothing it selects was sent: a
// latency threshold whose requests were sent and all failed before a
// response (timed out, refused, reset, cut off by the end of the run …)
// fails, because nothing shows the target met it. Aborted is left for the
// caller.
func (r *Run) Evaluate(t *threshold.Threshold) threshold.Result {
	v, ok := r.Observe(t)
	res := t.Evaluate(v, ok)
	if sent, answered := r.latencyEvidence(t); sent > 0 && answered == 0 {
		res.Pass = false
		res.Reason = "no completed request (" + units.Count(sent) + " sent)"
	}
	return res
}

// latencyEvidence returns, for a threshold on a request latency, how many
// requests its filter selects and how many of them received a response;
// both are 0 for any other threshold, including a latency count (which
// counts requests, whatever became of them).
func (r *Run) latencyEvidence(t *threshold.Threshold) (sent, answered int64) {
	if t.Metric != "http_req_duration" && t.Metric != "http_req_waiting" || t.Agg == threshold.Count {
		return 0, 0
	}
	eps, ok := r.selectEndpoints(t.Filter, false)
	if !ok {
		return 0, 0
	}
	for _, i := range eps {
		e := &r.Endpoints[i]
		sent += e.Requests
		answered += e.Requests
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			if !responded(k) {
				answered -= e.Failures[k]
			}
		}
	}
	return sent, answered
}

// responded reports whether a request that ended with kind k received a
// response: a status (an error status or a redirect that was not followed
// included), as opposed to a transport failure or a request cut off.
func responded(k sample.Kind) bool {
	switch k {
	case sample.OK, sample.HTTP4xx, sample.HTTP5xx, sample.Redirect:
		return true
	}
	return false
}
