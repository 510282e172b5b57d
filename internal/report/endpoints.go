package report

import (
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// rateNote says what every per-endpoint rate of r is over, naming the
// table's columns of its rate, its count (requests, gRPC calls, sessions:
// runUnit) and active time; each per-endpoint table carries it (see
// metrics.Run.Active). A run.db of an earlier build kept no send times:
// its rates are over whole seconds, and the note says so. When the
// all-endpoints latency leaves sessions or calls out, it says so too.
func rateNote(r *metrics.Run, rate, count, active string) string {
	if note := latencyNote(r); note != "" {
		return rateOnlyNote(r, rate, count, active) + " " + note
	}
	return rateOnlyNote(r, rate, count, active)
}

// rateOnlyNote is rateNote's sentence on the rates.
func rateOnlyNote(r *metrics.Run, rate, count, active string) string {
	u := runUnit(r)
	one := u.One
	if !sendsKept(r) {
		return rate + " = " + count + " / " + active + ", " + active + " from the start of the second each endpoint's first " + one + " was sent in " +
			"to the end of the second its last one ended in (this run.db keeps no send times), not the whole run."
	}
	return rate + " = " + count + " / " + active + ", " + active + " from each endpoint's first " + one + "'s intended start until its last one ended, " +
		"or in arrival-rate when its next was due if later (1,000 sent at 100/s are 10 s; a target that fell behind is rated at what it served, its drain included); " +
		"not the whole run, and at least a second (6 " + u.Many + " within 189 µs are 6/s); - for one " + one + ". " +
		"The headline's rate is the all endpoints row's, by this rule."
}

// runRate is the run's rate as every headline shows it: all endpoints'
// by the endpoints table's rule (metrics.Run.Rate), so that the two agree
// (a 0.25 s run read 2,292/s above a table's 570/s); 0 when that is no
// rate (one request).
func runRate(r *metrics.Run) float64 {
	tot := r.Total()
	return r.Rate(&tot)
}

// withRate is count followed by the run's rate in brackets, or count alone
// when there is no rate.
func withRate(count string, rate float64) string {
	if rate == 0 {
		return count
	}
	return count + " (" + units.Rate(rate, "") + ")"
}

// sendsKept reports whether every endpoint with requests kept when they
// were sent (run.db's snapshot format 4 on).
func sendsKept(r *metrics.Run) bool {
	for i := range r.Endpoints {
		if e := &r.Endpoints[i]; e.Requests > 0 && !e.Sends.Kept {
			return false
		}
	}
	return true
}

// endpointStats is one endpoint's figures, or all endpoints' together, as
// every rendering shows them: counts, the rate over the seconds it was
// active, and min, avg, p50, p90, p95, p99 and max of its durations.
type endpointStats struct {
	Name     string
	Requests int64
	Failed   int64
	Active   time.Duration // see metrics.Run.Active
	Rate     float64       // Requests per second of Active, at least a second of it (metrics.Run.Rate); 0 when Active is
	Latency  bool          // it has durations: the fields below mean something
	Min, Avg time.Duration
	P50, P90 time.Duration
	P95, P99 time.Duration
	Max      time.Duration
}

func newEndpointStats(r *metrics.Run, name string, e *metrics.EndpointTotal) endpointStats {
	s := endpointStats{Name: name, Requests: e.Requests, Failed: failed(e), Active: r.Active(e), Rate: r.Rate(e)}
	if h := e.Duration; h != nil && h.Count() > 0 {
		s.Latency = true
		s.Min, s.Avg, s.Max = h.Min(), h.Mean(), h.Max()
		s.P50, s.P90, s.P95, s.P99 = h.Quantile(50), h.Quantile(90), h.Quantile(95), h.Quantile(99)
	}
	return s
}

// errorRate is the share of requests that failed; NaN without requests.
func (s *endpointStats) errorRate() float64 { return ratio(s.Failed, s.Requests) }

// latencies lists min, avg, p50, p90, p95, p99 and max in the tables' order.
func (s *endpointStats) latencies() []time.Duration {
	return []time.Duration{s.Min, s.Avg, s.P50, s.P90, s.P95, s.P99, s.Max}
}

// endpointTable returns the figures of every endpoint, labelled with its
// scenario when there are several, and of all of them together when there
// is more than one (nil otherwise).
func endpointTable(r *metrics.Run) ([]endpointStats, *endpointStats) {
	rows := make([]endpointStats, len(r.Endpoints))
	for i := range r.Endpoints {
		rows[i] = newEndpointStats(r, endpointLabel(r, i), &r.Endpoints[i])
	}
	if len(r.Endpoints) < 2 {
		return rows, nil
	}
	tot := r.Total()
	all := newEndpointStats(r, "all endpoints", &tot)
	return rows, &all
}

// activeText formats how long an endpoint was active; "-" when that is no
// span: no requests, or one (or an arrival-rate scenario's all at once).
func activeText(s endpointStats) string {
	if s.Active == 0 {
		return "-"
	}
	return units.Duration(s.Active)
}

// rateText formats an endpoint's rate; "-" when it was active no span.
func rateText(s endpointStats) string {
	if s.Active == 0 {
		return "-"
	}
	return units.Number(s.Rate)
}

// rateCell is the run's rate with its unit for a headline card or cell;
// "-" when there is none.
func rateCell(r *metrics.Run) string {
	if rate := runRate(r); rate > 0 {
		return runUnit(r).Rate(rate)
	}
	return "-"
}
