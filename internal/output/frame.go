package output

import (
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// Frame is one second of a run as every sink reads it: this second's
// figures, and the run's cumulative counters up to its end, so that a
// store that missed a frame still gets exact totals from the next one.
// A frame is never changed once built; the sinks share it.
type Frame struct {
	Second    int
	Start     time.Time // the run's start: where the cumulative counters begin
	Time      time.Time // the end of the second: every point's timestamp
	Endpoints []EndpointFrame
	Scenarios []ScenarioFrame
	Checks    []CheckFrame // one per scenario and check name, in the layout's order
}

// CheckFrame is one check's outcomes in one second; checks of one name in
// one scenario are added together, as k6 counts them.
type CheckFrame struct {
	Scenario, Check string
	Passes, Fails   int64
}

// Status classes, the one status label the sinks write: the HTTP status
// code itself is left out to keep the series few.
const (
	StatusOK    = iota // a response with status < 400
	Status4xx          // a response with status 400..499
	Status5xx          // a response with status >= 500
	StatusError        // no response: timeout, refused, reset, DNS, TLS, ...
	numStatus
)

// statusNames are the status label's values, indexed by class.
var statusNames = [numStatus]string{"ok", "4xx", "5xx", "error"}

// statusOf returns the class of a failure kind.
func statusOf(k sample.Kind) int {
	switch k {
	case sample.OK:
		return StatusOK
	case sample.HTTP4xx:
		return Status4xx
	case sample.HTTP5xx:
		return Status5xx
	}
	return StatusError
}

// EndpointFrame is one endpoint's second.
type EndpointFrame struct {
	Scenario, Endpoint, Method string

	Requests int64                  // this second
	ByStatus [numStatus]int64       // this second's requests by status class
	Failures [sample.NumKinds]int64 // this second's failures by kind
	Sent     int64                  // bytes, this second
	Received int64                  // bytes, this second
	Duration Trend                  // this second's request durations
	Waiting  Trend                  // this second's times to the first response byte
	Connect  Phase                  // this second's new connections
	TLS      Phase                  // this second's TLS handshakes

	Total Totals // the run so far, up to the end of this second
}

// Totals are an endpoint's cumulative counters.
type Totals struct {
	Requests int64
	ByStatus [numStatus]int64
	Failures [sample.NumKinds]int64
	Sent     int64
	Received int64
	Duration Native // every request duration so far
}

// Trend is a second's durations summarized as k6 summarizes a Trend.
type Trend struct {
	Count                             int64
	Min, Max, Avg, Med, P90, P95, P99 time.Duration
}

// Phase is a connection phase of one second: only its mean and maximum are
// kept per second (a histogram would cost the hot path).
type Phase struct {
	Count    int64
	Avg, Max time.Duration
}

// ScenarioFrame is one scenario's second.
type ScenarioFrame struct {
	Scenario   string
	Iterations int64 // this second
	Dropped    int64 // this second: iterations the arrival rate asked for and no VU could start
	VUs        int64 // active at the end of the second
	VUsMax     int64 // allocated at the end of the second
	// NotSent is this second's iterations that ended on a request that
	// could not be sent (counted in Iterations too, as k6 counts a thrown
	// iteration; in no request figure).
	NotSent int64

	IterationDuration Trend // this second's completed iterations

	TotalIterations, TotalDropped, TotalNotSent int64 // the run so far
}

// kindName is a failure kind's stable name, the kind label's value.
func kindName(k int) string { return sample.Kind(k).String() }
