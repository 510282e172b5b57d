package threshold

import (
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// The SLO a capacity search judges its steps by is read from the test's
// thresholds: these helpers find its parts. Its latency is the target's
// latency in the test's own protocol: a request's duration
// (http_req_duration), a gRPC call's (grpc_req_duration), the time from a
// WebSocket message sent to its reply (ws_reply_time), or to a stream's
// first message (sse_time_to_first_msg).

// IsLatency reports whether a metric is a latency of the target that a
// capacity search judges: a request's or a session protocol's call's
// duration, a reply time, a time to first message. A session's length and
// the gaps between its messages are the test's or the server's pace,
// which load does not lengthen, so they are not.
func IsLatency(metric string) bool {
	if metric == "http_req_duration" {
		return true
	}
	_, f, ok := sample.FactMetric(metric)
	return ok && (f == sample.FactReqDuration || f == sample.FactReply || f == sample.FactFirstMsg)
}

// SLOText lists the thresholds as the test writes them, key and
// expression, for the line that opens a search.
func SLOText(defs []Threshold) string {
	s := ""
	for i, t := range defs {
		if i > 0 {
			s += ", "
		}
		s += t.Key + " " + t.Expr
	}
	return s
}

// LatencyMetric returns the metric the SLO judges latency on: that of its
// tightest upper limit on a latency (IsLatency), else of its first latency
// threshold; "" when it has none. A capacity search reads each step's
// p95, p99 and mean from it, so that a WebSocket test is judged on its
// replies, not on how long the test holds its sessions open.
func LatencyMetric(defs []Threshold) string {
	if t := tightest(defs); t != nil {
		return t.Metric
	}
	for _, t := range defs {
		if IsLatency(t.Metric) {
			return t.Metric
		}
	}
	return ""
}

// SLOLatency returns the test's whole-run p95 limit on its latency metric
// (LatencyMetric), if it has one, for the line drawn on the capacity chart.
func SLOLatency(defs []Threshold) time.Duration {
	metric := LatencyMetric(defs)
	for _, t := range defs {
		if t.Metric == metric && len(t.Filter) == 0 && t.Agg == Percentile && t.P == 95 {
			return time.Duration(t.Value * float64(time.Millisecond))
		}
	}
	return 0
}

// ErrorBudget returns the share of requests the test's thresholds allow
// to fail (the tightest upper limit on http_req_failed over every
// request, `rate == 0` allowing none), or 0 for the search's default: a
// counter-only SLO must not pass a target that answers only errors. A
// session (a gRPC call, a WebSocket session) is a request of its endpoint
// here, and a gRPC status other than OK a failure.
func ErrorBudget(defs []Threshold) float64 {
	budget := 0.0
	for _, t := range defs {
		none := t.Op == Eq && t.Value == 0
		if t.Metric != "http_req_failed" || len(t.Filter) > 0 || t.Agg != Rate || (t.Op != Lt && t.Op != Lte && !none) {
			continue
		}
		if v := max(t.Value, 1e-9); budget == 0 || v < budget { // rate<0 or <=0 allows none
			budget = min(v, 1)
		}
	}
	return budget
}

// LatencyLimit returns the tightest upper limit the test's thresholds put
// on a latency (IsLatency), or 0: scheduling lag adds to every latency
// timed from the intended start, so a capacity search judges lag against it.
func LatencyLimit(defs []Threshold) time.Duration {
	if t := tightest(defs); t != nil {
		return time.Duration(t.Value * float64(time.Millisecond))
	}
	return 0
}

// tightest returns the threshold with the lowest upper limit on a latency,
// the first written on a tie; nil when none has one.
func tightest(defs []Threshold) *Threshold {
	var best *Threshold
	for i := range defs {
		t := &defs[i]
		if !IsLatency(t.Metric) || t.Agg == Count || (t.Op != Lt && t.Op != Lte) || t.Value <= 0 {
			continue
		}
		if best == nil || t.Value < best.Value {
			best = t
		}
	}
	return best
}

// LatencyPercentile returns the highest percentile (0..100) a latency
// threshold (IsLatency) judges, 0 when none does: the figure that needs the
// most requests to be more than a step's slowest few.
func LatencyPercentile(defs []Threshold) float64 {
	var p float64
	for _, t := range defs {
		if IsLatency(t.Metric) && t.Agg == Percentile {
			p = max(p, t.P)
		}
	}
	return p
}
