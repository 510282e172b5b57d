package sample

import "time"

// Request is one finished HTTP request as the engine reports it. All times
// are offsets from the run's start on the monotonic clock.
type Request struct {
	Endpoint   int32         // index into Layout.Endpoints
	End        time.Duration // when the response was complete (or the request failed)
	Duration   time.Duration // from the intended start to End: includes waits for a VU or connection
	Waiting    time.Duration // from the request being written to the first response byte (TTFB)
	Connecting time.Duration // TCP connect time; 0 on a reused connection
	TLS        time.Duration // TLS handshake time; 0 on a reused or plain connection
	Sent       int64         // bytes written (request line, headers, body)
	Received   int64         // bytes read (status line, headers, body)
	Status     int           // HTTP status; 0 when no response arrived
	Redirects  int32         // redirects followed inside this sample
	Truncated  bool          // the body a check needed was longer than the cap: only its start was kept
	Kind       Kind          // outcome classification
	Err        string        // a short message when Kind != OK; empty otherwise
	Trace      TraceID       // the traceparent's trace id; zero when none was sent
	Sampled    bool          // the traceparent's sampled flag was set
	// Facts are a session protocol's figures; nil for an HTTP request,
	// whose path neither sets nor reads them.
	Facts *Facts
}

// CheckRead is what a check found in the answer it judged: the response's
// status (0 when none came, or for a protocol without one), and, when it
// failed, whether its body was not JSON the decoder reads (NotJSON) or
// held no value at its JSON path (NoValue). A check failing on bodies it
// could not read is no broken invariant; a race is one that read a value.
type CheckRead struct {
	Status           int
	NotJSON, NoValue bool
}

// Sink receives the measurements of one VU. Implementations are called on
// the request path, so they must be cheap and must never block for long.
type Sink interface {
	// Request records a finished request.
	Request(r *Request)
	// Check records one evaluation of a check.
	Check(check int32, end time.Duration, ok bool)
	// CheckAnswer records one evaluation of a check with what it read of
	// the answer (Check is CheckAnswer with none).
	CheckAnswer(check int32, end time.Duration, ok bool, a CheckRead)
	// Iteration records a completed iteration of a scenario and its duration.
	Iteration(scenario int32, end time.Duration, d time.Duration)
	// Group records one run of a flow's group (an id in Layout.Groups)
	// that ended at end and took d.
	Group(group int32, end time.Duration, d time.Duration)
	// Add records one value added to a custom metric's series (an id in
	// Layout.Metrics) at end; NaN is a value that was not a number.
	Add(series int32, end time.Duration, value float64)
	// Dropped records an open-model iteration that could not start for lack
	// of a VU, at its intended start.
	Dropped(scenario int32, at time.Duration)
	// Offered records n arrivals an open-model schedule offered at offset
	// at (their intended start): started or dropped, what the schedule
	// asked for, whatever the target did with them.
	Offered(scenario int32, at time.Duration, n int64)
	// Lag records how late an iteration started compared with its intended start.
	Lag(scenario int32, at time.Duration, lag time.Duration)
	// NotSent records an iteration of scenario that ended at end because a
	// request of it could not be built, or was refused before any byte of
	// it was written (a URL a data value filled with a line break): no
	// request, so in no request figure; why names the step and the cause.
	NotSent(scenario int32, end time.Duration, why string)
}

// LastRequestSink is a Sink that records a request and the iteration it
// ends (at the request's End) in one call: one lock instead of two on the
// closed model's per-request path.
type LastRequestSink interface {
	Sink
	// RequestIteration records r, then the iteration of scenario it ended, of duration d.
	RequestIteration(r *Request, scenario int32, d time.Duration)
}

// Recorder hands each VU the Sink it records into, so that VUs can be
// spread over independent shards instead of contending on one lock.
type Recorder interface {
	Sink(vu int) Sink
}

// Gauge is the instantaneous VU state of one scenario, sampled once a second.
type Gauge struct {
	Active int64 // VUs currently running (closed model) or busy in an iteration (open model)
	// Peak is the most VUs active at once since the previous sample (at
	// least Active): what a second had, though it ended with none (the
	// run's end) or its VUs came and went within it.
	Peak      int64
	Allocated int64 // VUs that exist (k6's vus_max)
	// HeldAt is the size an open-model scenario's VU pool was last held at
	// while arrivals were dropped; 0 when it never was.
	HeldAt int64
	// HeldBy says why: "max_vus", "open_files", "generator_behind" (loadlens
	// was late on its own schedule) or "latency" (Little's law on the
	// target's service time); "" when the pool was never held.
	HeldBy string
}
