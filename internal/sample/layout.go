package sample

// Layout names everything a run measures. Indexes into its slices are the
// ids the engine records with, so the hot path never looks up names.
type Layout struct {
	Scenarios []ScenarioInfo `json:"scenarios"`
	Endpoints []EndpointInfo `json:"endpoints"`
	Checks    []CheckInfo    `json:"checks"`
	Groups    []GroupInfo    `json:"groups,omitempty"`
	// Metrics are the custom metrics' series: one per metric a scenario's
	// flow adds to.
	Metrics []MetricInfo `json:"metrics,omitempty"`
	// KeepExpected asks for a histogram of each endpoint's successful
	// requests' durations besides the histogram of all of them: a
	// threshold on http_req_duration{expected_response:true} judges it.
	// Off, nothing is kept, and a request costs what it did.
	KeepExpected bool `json:"keep_expected,omitempty"`
	// Statuses are the HTTP statuses thresholds name ({status:"200"}):
	// each endpoint keeps a count and a histogram of its requests answered
	// with each, and nothing when there are none.
	Statuses []int `json:"statuses,omitempty"`
}

// GroupInfo describes one group of a scenario's flow: a named sub-flow
// whose runs are timed as group_duration.
type GroupInfo struct {
	Scenario int32  `json:"scenario"`
	Name     string `json:"name"` // as k6 tags it: "::checkout", "::checkout::pay" when nested
}

// MetricKind is how a custom metric aggregates its values, as in k6.
type MetricKind uint8

// The kinds of custom metric.
const (
	CounterMetric MetricKind = iota // a sum of the values added
	RateMetric                      // the share of the values added that were true (non-zero)
	TrendMetric                     // the distribution of the values added
)

// MetricInfo describes one series of a custom metric: the values one
// scenario's flow adds to it.
type MetricInfo struct {
	Scenario int32      `json:"scenario"`
	Name     string     `json:"name"`
	Kind     MetricKind `json:"kind"`
	// Time is true for a trend of times in milliseconds (k6's
	// new Trend(name, true)); false for a trend of plain numbers.
	Time bool `json:"time,omitempty"`
}

// ScenarioInfo describes one scenario of a test.
type ScenarioInfo struct {
	Name  string `json:"name"`
	Model string `json:"model"` // "arrival-rate", "vus" or "iterations"
}

// EndpointInfo describes one endpoint: requests that are grouped together.
type EndpointInfo struct {
	Scenario int32  `json:"scenario"`
	Name     string `json:"name"`   // e.g. "GET /apps/first-page/{category}"
	Method   string `json:"method"` // e.g. "GET"
	// Plain is true when every request of the endpoint goes to a plain
	// http:// URL: it has no TLS handshake to time.
	Plain bool `json:"plain,omitempty"`
	// Group is the flow group its steps are in ("::checkout"; "" for none):
	// the same request in two groups is two endpoints, as k6 tags them.
	Group string `json:"group,omitempty"`
	// Protocol is the step kind of a session protocol ("sse", "ws"), which
	// prefixes its facts' metric names (sse_msgs_received); "" for HTTP.
	Protocol string `json:"protocol,omitempty"`
	// Session is true for a protocol whose samples are sessions held open
	// (Server-Sent Events, WebSocket: their durations are how long they
	// were held, often a configured duration:), false for one whose samples
	// are calls answered (gRPC): a session is no request latency, so
	// http_req_duration, the run's headline latency and the latency
	// findings leave it out (see Latencies).
	Session bool `json:"session,omitempty"`
}

// Latencies reports, by endpoint id, whether an endpoint's durations are
// the run's latency: its HTTP requests' when it has HTTP endpoints, else
// its calls' (a gRPC-only test); a session's length never is. Every figure
// that merges endpoints' durations (the headline, the all-endpoints row,
// the per-second percentiles, the latency findings) merges these alone.
func (l *Layout) Latencies() []bool {
	http := false
	for i := range l.Endpoints {
		http = http || l.Endpoints[i].Protocol == ""
	}
	out := make([]bool, len(l.Endpoints))
	for i, e := range l.Endpoints {
		out[i] = e.Protocol == "" || !http && !e.Session
	}
	return out
}

// CheckInfo describes one named check of a scenario.
type CheckInfo struct {
	Scenario int32  `json:"scenario"`
	Endpoint int32  `json:"endpoint"` // the endpoint whose responses it checks
	Name     string `json:"name"`
}
