package metrics

import (
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// testLayout has two scenarios, three endpoints and two checks.
func testLayout() sample.Layout {
	return sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "vus"}, {Name: "buy", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{
			{Scenario: 0, Name: "GET /", Method: "GET"},
			{Scenario: 0, Name: "GET /item/{id}", Method: "GET"},
			{Scenario: 1, Name: "POST /cart", Method: "POST"},
		},
		Checks: []sample.CheckInfo{
			{Scenario: 0, Endpoint: 0, Name: "status is 200"},
			{Scenario: 1, Endpoint: 2, Name: "added"},
		},
	}
}

// request returns a request whose fields are all derived from i, so tests
// can predict totals.
func request(i int, end time.Duration) sample.Request {
	r := sample.Request{
		Endpoint: int32(i % 3),
		End:      end,
		Duration: time.Duration(1+i%500) * time.Millisecond,
		Waiting:  time.Duration(1+i%250) * time.Millisecond,
		Sent:     100,
		Received: int64(1000 + i%7),
	}
	if i%10 == 0 {
		r.Connecting = 2 * time.Millisecond
		r.TLS = 3 * time.Millisecond
	}
	switch i % 50 {
	case 1:
		r.Kind, r.Status, r.Err = sample.HTTP5xx, 503, "503 Service Unavailable"
	case 2:
		r.Kind, r.Err = sample.Timeout, "request timeout"
	case 3:
		r.Kind, r.Err = sample.Interrupted, "cut off by the end of the run"
	case 4:
		r.Kind, r.Status, r.Err, r.Redirects = sample.Redirect, 302, "stopped after 10 redirects", 10
	case 5:
		r.Status, r.Truncated = 200, true
	case 6:
		r.Status, r.Redirects = 200, 2 // followed two hops to its answer
	default:
		r.Status = 200
	}
	return r
}

// expectation accumulates what a set of recorded requests must add up to.
type expectation struct {
	requests, sent, received, connects, failures, truncated int64
	redirects                                               int64
	failuresByKind                                          [sample.NumKinds]int64
	duration                                                *Hist
}

func newExpectation() *expectation { return &expectation{duration: NewHist()} }

func (e *expectation) add(r sample.Request) {
	e.requests++
	e.sent += r.Sent
	e.received += r.Received
	if r.Connecting > 0 {
		e.connects++
	}
	if r.Truncated {
		e.truncated++
	}
	e.redirects += int64(r.Redirects)
	if r.Kind != sample.OK {
		e.failures++
		e.failuresByKind[r.Kind]++
	}
	e.duration.Record(r.Duration)
}
