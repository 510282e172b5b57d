package threshold

import "github.com/loadlens/loadlens/internal/sample"

// MetricKind is how a metric aggregates, which decides the aggregations,
// units and filters its thresholds may use.
type MetricKind uint8

// The kinds of metric.
const (
	// Trend is a distribution of times in milliseconds (p(N), avg, min, max, med, count).
	Trend MetricKind = iota
	// RateKind is a ratio from 0 to 1 of events that were true (rate).
	RateKind
	// Counter is a total that only grows (count, and rate per second).
	Counter
	// Gauge is a value sampled over time (value, min, max).
	Gauge
)

// String returns the kind's name as the documentation writes it.
func (k MetricKind) String() string {
	switch k {
	case Trend:
		return "trend"
	case RateKind:
		return "rate"
	case Counter:
		return "counter"
	case Gauge:
		return "gauge"
	}
	return "unknown"
}

// knownMetrics lists the metric names for error messages, by kind.
const knownMetrics = "http_req_duration, http_req_waiting, http_req_connecting, http_req_tls_handshaking, " +
	"iteration_duration, group_duration, scheduler_lag, http_req_failed, checks, http_reqs, iterations, dropped_iterations, " +
	"iterations_not_sent, data_sent, data_received, vus, vus_max"

// knownBuiltins is knownMetrics with the session protocols' facts, which
// every protocol has under its own prefix.
const knownBuiltins = knownMetrics + ", <protocol>_<fact> (sse_msgs_received; docs/protocols.md)"

// KindOf returns the kind of a metric, and false for an unknown metric.
func KindOf(metric string) (MetricKind, bool) {
	switch metric {
	case "http_req_duration", "http_req_waiting", "http_req_connecting", "http_req_tls_handshaking",
		"iteration_duration", "group_duration", "scheduler_lag":
		return Trend, true
	case "http_req_failed", "checks":
		return RateKind, true
	case "http_reqs", "iterations", "dropped_iterations", "iterations_not_sent", "data_sent", "data_received":
		return Counter, true
	case "vus", "vus_max":
		return Gauge, true
	}
	if _, f, ok := sample.FactMetric(metric); ok { // every protocol's facts, by their suffix
		if f.IsTrend() {
			return Trend, true
		}
		return Counter, true
	}
	return 0, false
}

// filterKeys returns the tag keys a metric's filter may use, in the order
// error messages list them; nil when the metric cannot be filtered.
func filterKeys(metric string) []string {
	switch metric {
	case "http_req_duration":
		return []string{"scenario", "endpoint", "name", "method", "group", "expected_response", "status"}
	case "http_reqs":
		return []string{"scenario", "endpoint", "name", "method", "group", "status"}
	case "http_req_waiting", "http_req_connecting", "http_req_tls_handshaking", "data_sent", "data_received":
		return []string{"scenario", "endpoint", "name", "method", "group"}
	case "http_req_failed":
		return []string{"scenario", "endpoint", "name", "method", "group", "kind"}
	case "checks":
		return []string{"check", "scenario", "endpoint"}
	case "iterations", "iteration_duration", "dropped_iterations", "iterations_not_sent", "vus", "vus_max", "scheduler_lag":
		return []string{"scenario"}
	case "group_duration":
		return []string{"group", "scenario"}
	}
	if _, _, ok := sample.FactMetric(metric); ok {
		return []string{"scenario", "endpoint", "name", "group"}
	}
	return nil
}

// phaseOnly reports whether a trend keeps only sums and maxima (connect and
// TLS times), so that a percentile threshold on it could never be judged.
func phaseOnly(metric string) bool {
	return metric == "http_req_connecting" || metric == "http_req_tls_handshaking"
}

// aggNames lists the aggregations of a metric for error messages.
func aggNames(metric string, k MetricKind) string {
	if phaseOnly(metric) {
		return "avg, max, count"
	}
	switch k {
	case Trend:
		return "p(N), avg, min, max, med, count"
	case RateKind:
		return "rate"
	case Counter:
		return "count, rate"
	}
	return "value, min, max"
}

// aggAllowed reports whether a metric of kind k has aggregation a.
func aggAllowed(metric string, k MetricKind, a AggKind) bool {
	if phaseOnly(metric) {
		return a == Avg || a == Max || a == Count
	}
	switch k {
	case Trend:
		return a == Percentile || a == Avg || a == Min || a == Max || a == Med || a == Count
	case RateKind:
		return a == Rate
	case Counter:
		return a == Count || a == Rate
	case Gauge:
		return a == Value || a == Min || a == Max
	}
	return false
}

// isTime reports whether an aggregation of kind k is a time in milliseconds.
func isTime(k MetricKind, a AggKind) bool { return k == Trend && a != Count }

// isBytes reports whether a metric counts bytes.
func isBytes(metric string) bool { return metric == "data_sent" || metric == "data_received" }
