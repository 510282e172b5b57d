package units

// Unit is what one sample of a test counts, named once for every page: a
// request of HTTP, a call of gRPC, a session of the other session
// protocols (WebSocket, Server-Sent Events), an operation of a test that
// mixes them. A rate of it reads "80 calls/s",
// never "80 req/s" for calls. The zero Unit is Requests, so a figure saved by
// an earlier build, which names none, reads as it did.
type Unit struct {
	One   string `json:"one"`   // "call"
	Many  string `json:"many"`  // "calls"
	Short string `json:"short"` // before "/s": "req", "calls", "sessions"
}

// The units a test's samples and its other figures count.
var (
	Requests   = Unit{One: "request", Many: "requests", Short: "req"}
	Calls      = Unit{One: "call", Many: "calls", Short: "calls"}
	Sessions   = Unit{One: "session", Many: "sessions", Short: "sessions"}
	Messages   = Unit{One: "message", Many: "messages", Short: "msgs"}
	Iterations = Unit{One: "iteration", Many: "iterations", Short: "iterations"}
	// Operations counts the samples of a test of several units (requests
	// and calls, calls and sessions) as one figure: none of their own
	// words names them all.
	Operations = Unit{One: "operation", Many: "operations", Short: "ops"}
)

// ForProtocol is the unit one sample of a protocol counts, by the step
// kind that names it (sample.EndpointInfo.Protocol): "" (HTTP) a request,
// "grpc" a call, and any other session protocol a session, so that a new
// protocol's samples are sessions unless it is named here.
func ForProtocol(protocol string) Unit {
	switch protocol {
	case "", "http":
		return Requests
	case "grpc":
		return Calls
	}
	return Sessions
}

// ForProtocols is the unit of a test whose samples are of these
// protocols: theirs when they all count one unit, else Operations (a
// test of HTTP requests and gRPC calls counts neither as the other).
func ForProtocols(protocols []string) Unit {
	if len(protocols) == 0 {
		return Requests
	}
	u := ForProtocol(protocols[0])
	for _, p := range protocols[1:] {
		if ForProtocol(p) != u {
			return Operations
		}
	}
	return u
}

// Or returns u, or Requests for the zero Unit.
func (u Unit) Or() Unit {
	if u.Many == "" {
		return Requests
	}
	return u
}

// PerSecond names the unit's rate: "req/s", "calls/s".
func (u Unit) PerSecond() string { return u.Or().Short + "/s" }

// Rate writes a rate of the unit: "80 calls/s", "1,200 req/s".
func (u Unit) Rate(v float64) string { return Rate(v, u.Or().Short) }

// Count writes a count of the unit: "1 call", "2,000 calls".
func (u Unit) Count(n int64) string { return CountOf(n, u.Or().One, u.Or().Many) }

// Quantity writes a figure of the unit that may be fractional: "1 call", "1.5 calls".
func (u Unit) Quantity(x float64) string { return Quantity(x, u.Or().One, u.Or().Many) }
