package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// TestExpectedResponse: http_req_duration{expected_response:true} judges
// the successful requests alone, as k6 does, through the wire format; the
// same threshold without the filter judges every request; and a layout
// that does not keep the successes keeps no histogram for them.
func TestExpectedResponse(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}},
		Endpoints:    []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}, {Scenario: 0, Name: "GET /y", Method: "GET", Group: "::g"}},
		KeepExpected: true}
	rec := NewRecorder(layout, 1)
	for i := range 100 {
		r := sample.Request{Endpoint: int32(i % 2), End: time.Second / 2, Duration: 10 * time.Millisecond, Status: 200}
		if i%10 == 0 { // 10 slow failures
			r.Duration, r.Status, r.Kind, r.Err = 5*time.Second, 503, sample.HTTP5xx, "503"
		}
		rec.Sink(0).Request(&r)
	}
	b, err := rec.Collect(0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var snap Snapshot
	if err := snap.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	run := NewRun(layout)
	run.Add(&snap)
	run.SetElapsed(time.Second)
	for _, tc := range []struct{ key, expr, want string }{
		{"http_req_duration{expected_response:true}", "p(95)<100ms", "pass"},
		{"http_req_duration{expected_response:true}", "count==90", "pass"},
		{"http_req_duration{expected_response:true,name:/x}", "count==40", "pass"}, // the 10 failures are all /x
		{"http_req_duration{name:GET /x}", "count==50", "pass"},
		{"http_req_duration{group:::g}", "count==50", "pass"},
		{"http_req_failed{group:::g}", "rate==0", "pass"},
		{"http_req_duration", "p(95)<100ms", "fail"},
	} {
		th, err := threshold.New(tc.key, tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		res := run.Evaluate(&th)
		if got := map[bool]string{true: "pass", false: "fail"}[res.Pass]; got != tc.want {
			t.Errorf("%s %s: %s (observed %v, %s), want %s", tc.key, tc.expr, got, res.Observed, res.Reason, tc.want)
		}
	}

	layout.KeepExpected = false
	rec = NewRecorder(layout, 1)
	rec.Sink(0).Request(&sample.Request{End: time.Second / 2, Duration: time.Millisecond, Status: 200})
	b, _ = rec.Collect(0).MarshalBinary()
	if snap := rec.Collect(0); snap.Endpoints[0].Expected != nil || b[3] != 4 {
		t.Errorf("a layout that does not keep successes kept them (version %d)", b[3])
	}
}
