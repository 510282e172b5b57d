package history

import (
	"fmt"
	"strings"
	"time"
)

// Figure is one figure of an endpoint that a series follows.
type Figure int

// The figures history follows per endpoint.
const (
	P50 Figure = iota
	P95
	P99
	Throughput
	Errors
)

// Figures lists every figure in the order pages show them.
var Figures = []Figure{P50, P95, P99, Throughput, Errors}

// String is the figure's name as `--fail-on-change` takes it.
func (f Figure) String() string {
	return [...]string{"p(50)", "p(95)", "p(99)", "rps", "errors"}[f]
}

// Latency reports whether the figure is a duration.
func (f Figure) Latency() bool { return f <= P99 }

// Relative reports whether a step of the figure is judged as a ratio
// (latency, throughput: on their logarithm, so that +10 % means the same at
// 5 ms as at 5 s) rather than as a difference (an error rate, often 0).
func (f Figure) Relative() bool { return f != Errors }

// Worse reports whether a step of sign delta makes the figure worse:
// latency and errors up, throughput down.
func (f Figure) Worse(delta float64) bool {
	if f == Throughput {
		return delta < 0
	}
	return delta > 0
}

// Value is the figure of one endpoint: milliseconds for latency, requests
// per second, or the error rate as a fraction.
func (f Figure) Value(e Endpoint) float64 {
	switch f {
	case P50:
		return ms(e.P50)
	case P95:
		return ms(e.P95)
	case P99:
		return ms(e.P99)
	case Throughput:
		return e.RPS
	}
	return e.ErrorRate
}

// ParseFigure reads a figure's name: p(50), p(95), p(99) (also med, p50…),
// rps (also throughput) or errors (also error_rate, http_req_failed).
func ParseFigure(s string) (Figure, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "p(50)", "p50", "med":
		return P50, nil
	case "p(95)", "p95":
		return P95, nil
	case "p(99)", "p99":
		return P99, nil
	case "rps", "throughput":
		return Throughput, nil
	case "errors", "error_rate", "http_req_failed":
		return Errors, nil
	}
	return 0, fmt.Errorf("unknown figure %q: want p(50), p(95), p(99), rps or errors", s)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
