package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// TestStatusThresholds: a layout that keeps statuses 200 and 503 judges
// http_req_duration{status:...} and http_reqs{status:...} exactly, through
// the wire format and with other tags; a status nothing answered with has
// no data, named; a layout that keeps none keeps nothing per status.
func TestStatusThresholds(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "vus"}, {Name: "b", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}, {Scenario: 1, Name: "GET /y", Method: "GET"}},
		Statuses:  []int{200, 404, 503}}
	rec := NewRecorder(layout, 2)
	for i := range 100 {
		r := sample.Request{Endpoint: int32(i % 2), End: time.Second / 2, Duration: 10 * time.Millisecond, Status: 200, Received: 100}
		switch {
		case i%10 == 0: // 10 slow 503s, all on /x
			r.Duration, r.Status, r.Kind, r.Err = 2*time.Second, 503, sample.HTTP5xx, "503"
		case i%10 == 1: // 10 fast 201s on /y: kept under no status
			r.Duration, r.Status = time.Millisecond, 201
		}
		rec.Sink(i).Request(&r)
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
		{"http_req_duration{status:200}", "max<20ms", "pass"},
		{"http_req_duration{status:200}", "count==80", "pass"},
		{"http_req_duration{status:503}", "min>=1s", "pass"}, // failed requests: no failure-share rule, they are what it selects
		{"http_req_duration{status:503,scenario:b}", "p(95)<1s", "fail: no data: no response with status 503"},
		{"http_reqs{status:503}", "count==10", "pass"},
		{"http_reqs{status:200,name:/y}", "count==40", "pass"},
		{"http_reqs{status:404}", "count==0", "pass"}, // a counter at 0 is data
		{"http_req_duration{status:404}", "p(95)<1s", "fail: no data: no response with status 404"},
		{"http_req_duration", "count==100", "pass"},
		{"data_received{scenario:b}", "count==5000", "pass"}, // 50 requests of 100 B
		{"data_received{scenario:a}", "count==5000", "pass"},
	} {
		th, err := threshold.New(tc.key, tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.key, err)
		}
		res := run.Evaluate(&th)
		got := "fail"
		if res.Pass {
			got = "pass"
		}
		if res.Reason != "" {
			got += ": " + res.Reason
		}
		if got != tc.want {
			t.Errorf("%s %s: %s (observed %v), want %s", tc.key, tc.expr, got, res.Observed, tc.want)
		}
	}
	layout.Statuses = nil
	plain := NewRecorder(layout, 1)
	plain.Sink(0).Request(&sample.Request{End: time.Second / 2, Duration: time.Millisecond, Status: 200})
	if s := plain.Collect(0); s.Endpoints[0].ByStatus != nil {
		t.Errorf("a layout keeping no status kept %v", s.Endpoints[0].ByStatus)
	}
}
