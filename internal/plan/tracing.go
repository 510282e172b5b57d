package plan

// Defaults of the tracing section.
const (
	DefaultTraceKeep = 10 // slowest requests' trace ids kept per endpoint
	MaxTraceKeep     = 1000
)

// Tracing is the test's tracing section: how requests carry W3C trace
// context and how the run links to a trace UI.
type Tracing struct {
	Sample     float64 // share of requests whose traceparent has the sampled flag, 0 to 1
	TraceState bool    // send tracestate: loadlens=<run id>
	Baggage    bool    // send baggage: loadlens.run=<run id>
	UI         string  // a trace UI URL with {trace_id} in it; "" for none
	Keep       int     // the slowest sampled requests whose trace ids are kept, per endpoint
}

// ObserveTraces is the observe section's OTLP receiver: the target (or its
// collector) exports spans there during the run.
type ObserveTraces struct {
	Listen string // host:port of the OTLP/HTTP receiver
	GRPC   string // host:port of an OTLP/gRPC receiver beside it; "" for none
	// Token is required of every export (Authorization: Bearer); "" for
	// none on loopback, and one made up and printed on an address other
	// hosts can reach, as for the dashboard.
	Token string
}

// MinTracesToken is the shortest observe.traces.token accepted: a
// guessable one would let anyone on the network feed the run's findings.
const MinTracesToken = 16
