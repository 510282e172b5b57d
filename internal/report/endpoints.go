package report

import (
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// rateNote says what every per-endpoint rate is over, naming the table's
// columns of requests and active time; each per-endpoint table carries it.
// The run's last second counts only as far as the run lasted (see
// metrics.Run.Active).
func rateNote(requests, active string) string {
	return "RPS = " + requests + " / " + active + ", from each endpoint's first request sent to its last, not the whole run."
}

// endpointStats is one endpoint's figures, or all endpoints' together, as
// every rendering shows them: counts, the rate over the seconds it was
// active, and min, avg, p50, p90, p95, p99 and max of its durations.
type endpointStats struct {
	Name     string
	Requests int64
	Failed   int64
	Active   time.Duration // see metrics.Run.Active
	Rate     float64       // Requests per second of Active; 0 without requests
	Latency  bool          // it has durations: the fields below mean something
	Min, Avg time.Duration
	P50, P90 time.Duration
	P95, P99 time.Duration
	Max      time.Duration
}

func newEndpointStats(r *metrics.Run, name string, e *metrics.EndpointTotal) endpointStats {
	s := endpointStats{Name: name, Requests: e.Requests, Failed: failed(e), Active: r.Active(e)}
	if s.Active > 0 {
		s.Rate = float64(e.Requests) / s.Active.Seconds()
	}
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

// activeText formats how long an endpoint was active; "-" without requests.
func activeText(s endpointStats) string {
	if s.Requests == 0 {
		return "-"
	}
	return units.Duration(s.Active)
}
