package estimate

import (
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// SLO is what a second of a run must meet for its successful requests to
// count as capacity: its error share within the budget and its latency
// under every limit.
type SLO struct {
	// Metric is the latency the limits are on: http_req_duration, or a
	// session protocol's own (grpc_req_duration, ws_reply_time); the
	// seconds judged must hold its figures (MetricSecond).
	Metric    string
	Latency   []LatencyLimit
	MaxErrors float64 // the error share a second may have; negative: no budget
	Inclusive bool    // the error share may equal MaxErrors
	Source    string  // where the SLO comes from, printed with the rate
	// Unjudged are the run's thresholds no second can be judged on (a
	// filter, a percentile not kept per second, a check, a counter), as
	// written: the plan names them rather than drop them silently.
	Unjudged []string
	// Replaced are the run's thresholds a latency goal or error budget
	// given instead took the place of, as written.
	Replaced []string
	// Unit is what a second's samples count (gRPC calls, sessions), for
	// the words of a miss; zero: requests.
	Unit units.Unit
}

// DefaultSLO is the starter test's SLO (p95 < 1s, errors < 1%), with the
// latency goal and error budget given (above 0) instead; source says why.
// Its latency is http_req_duration's.
func DefaultSLO(latencyGoal time.Duration, maxErrors float64, source string) SLO {
	if latencyGoal <= 0 {
		latencyGoal = time.Second
	}
	if maxErrors <= 0 {
		maxErrors = 0.01
	}
	lat := p95Limit(latencyGoal)
	return SLO{Metric: RequestDuration, Latency: []LatencyLimit{lat}, MaxErrors: maxErrors,
		Source: lat.Text + " and errors < " + units.Share(maxErrors) + " (" + source + ")"}
}

// p95Limit is a latency goal as a limit on a second's p95.
func p95Limit(goal time.Duration) LatencyLimit {
	return LatencyLimit{Agg: threshold.Percentile, P: 95, Limit: goal, Text: "p(95) < " + units.DurationLiteral(goal)}
}

// runSLO is the part of a run's thresholds a second can be judged on,
// with the text of each part as written and what cannot be judged.
type runSLO struct {
	SLO
	latency, errors []string // the thresholds kept, e.g. "http_req_failed rate == 0"
}

// fromThresholds sorts a run's thresholds: upper limits on the whole of
// metric (http_req_duration, grpc_req_duration, ws_reply_time …) by a
// percentile kept per second (p50, p90, p95, p99), med, max or avg, and an
// upper limit on the rate of http_req_failed (or `rate == 0`: none may
// fail) are kept; every other is Unjudged.
func fromThresholds(defs []threshold.Threshold, metric string) runSLO {
	r := runSLO{SLO: SLO{Metric: metric, MaxErrors: -1}}
	for _, t := range defs {
		written := t.Key + " " + t.Expr
		upper := t.Op == threshold.Lt || t.Op == threshold.Lte
		inclusive := t.Op == threshold.Lte
		switch {
		case len(t.Filter) > 0:
			r.Unjudged = append(r.Unjudged, written)
		case t.Metric == "http_req_failed" && t.Agg == threshold.Rate && (upper || t.Op == threshold.Eq && t.Value == 0):
			if r.MaxErrors < 0 || t.Value < r.MaxErrors || t.Value == r.MaxErrors && !inclusive {
				r.MaxErrors, r.Inclusive = t.Value, inclusive || t.Op == threshold.Eq
			}
			r.errors = append(r.errors, written)
		case t.Metric == metric && upper && perSecond(t.Agg, t.P):
			r.Latency = append(r.Latency, LatencyLimit{Agg: t.Agg, P: t.P, Inclusive: inclusive, Text: t.Expr,
				Limit: time.Duration(t.Value * float64(time.Millisecond))})
			r.latency = append(r.latency, written)
		default:
			r.Unjudged = append(r.Unjudged, written)
		}
	}
	return r
}

// SLOFromThresholds takes the limits a second can be judged on from a
// run's thresholds (see fromThresholds), its latency on metric, naming the
// others in Unjudged. ok is false when none can be judged.
func SLOFromThresholds(defs []threshold.Threshold, metric string) (slo SLO, ok bool) {
	r := fromThresholds(defs, metric)
	kept := append(append([]string(nil), r.latency...), r.errors...)
	r.Source = "the run's thresholds " + strings.Join(kept, ", ")
	return r.SLO, len(kept) > 0
}

// SLOFor is the SLO a --from-run run's seconds are judged on, its latency
// on metric (LatencyOf): a latency goal and an error budget given (above 0)
// take the place of the run's thresholds of their kind; a part not given
// is the run's, or the starter test's (p95 < 1s, errors < 1%) when the run
// has none of that kind.
func SLOFor(latencyGoal time.Duration, maxErrors float64, defs []threshold.Threshold, metric string) SLO {
	r := fromThresholds(defs, metric)
	if latencyGoal <= 0 && maxErrors <= 0 {
		if slo, ok := SLOFromThresholds(defs, metric); ok {
			return slo
		}
		slo := DefaultSLO(0, 0, "the starter test's, as the run has no threshold to judge a second on")
		slo.Metric, slo.Unjudged = metric, r.Unjudged
		if metric != RequestDuration {
			slo.Source = metric + " " + slo.Source
		}
		return slo
	}
	slo := SLO{Metric: metric, Unjudged: r.Unjudged}
	var parts []string
	switch {
	case latencyGoal > 0:
		slo.Latency = []LatencyLimit{p95Limit(latencyGoal)}
		slo.Replaced = append(slo.Replaced, r.latency...)
		parts = append(parts, named(metric)+slo.Latency[0].Text+" (given)")
	case len(r.latency) > 0:
		slo.Latency = r.Latency
		parts = append(parts, "the run's "+strings.Join(r.latency, ", "))
	default:
		slo.Latency = []LatencyLimit{p95Limit(time.Second)}
		parts = append(parts, named(metric)+"p(95) < 1s (the starter test's)")
	}
	switch {
	case maxErrors > 0:
		slo.MaxErrors = maxErrors
		slo.Replaced = append(slo.Replaced, r.errors...)
		parts = append(parts, "errors < "+units.Share(maxErrors)+" (given)")
	case len(r.errors) > 0:
		slo.MaxErrors, slo.Inclusive = r.MaxErrors, r.Inclusive
		parts = append(parts, "the run's "+strings.Join(r.errors, ", "))
	default:
		slo.MaxErrors = 0.01
		parts = append(parts, "errors < 1% (the starter test's)")
	}
	slo.Source = strings.Join(parts, " and ")
	return slo
}

// named is a latency limit's metric before its expression, when it is not
// a request's duration: "ws_reply_time ".
func named(metric string) string {
	if metric == RequestDuration {
		return ""
	}
	return metric + " "
}

// perSecond says whether a latency aggregation is kept for every second.
func perSecond(agg threshold.AggKind, p float64) bool {
	switch agg {
	case threshold.Med, threshold.Max, threshold.Avg:
		return true
	case threshold.Percentile:
		return p == 50 || p == 90 || p == 95 || p == 99
	}
	return false
}
