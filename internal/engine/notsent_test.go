package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestNotSentIsNoRequest: a request that could not be built, or was refused
// before any byte of it was written, is no request: it ends its iteration,
// which is counted with its reason (Sink.NotSent), and nothing of it is in
// the request samples, nor is the flow's next step sent. Before, each was a
// request of kind other with 0 bytes sent: 6 of them read "6 requests
// (480/s), 100% failed" in a trial. A refused connection was a request on
// the wire and stays one.
func TestNotSentIsNoRequest(t *testing.T) {
	const refused = "http://127.0.0.1:1" // nothing listens on port 1
	badHeader := get(refused + "/h")
	badHeader.Request.Headers = []plan.Header{{Name: "X-Id", Value: tmpl.Literal("a\r\nX-Evil: 1")}}
	tests := []struct {
		name string
		step plan.Step
		why  string // the start of every reason; "" when the request is sent
	}{
		{"a line break in the URL", get(refused + "/u/a\r\nHost: evil"),
			"not sent: GET " + refused + "/u/a\r\nHost: evil has a line break at byte 23 once filled in; "},
		{"a line break in a header", badHeader, "not sent: GET " + refused + "/h: header value contains a line break"},
		{"a scheme no client has", get("ftp://127.0.0.1:1/f"), "not sent: GET ftp://127.0.0.1:1/f: unsupported URL scheme"},
		{"no host", get("http:///x"), "not sent: GET http:///x: "},
		{"a refused connection is a request", get(refused + "/r"), ""},
	}
	for _, cl := range clients() {
		for _, tt := range tests {
			t.Run(cl.name+"/"+tt.name, func(t *testing.T) {
				next := get(refused + "/next") // never reached after a request not sent
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 3, MaxDuration: time.Minute}, tt.step, next)
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
				if rec.iterations != 3 {
					t.Errorf("%d iterations, want 3", rec.iterations)
				}
				if tt.why == "" {
					if len(rec.notSent) != 0 || len(rec.reqs) != 6 || rec.reqs[0].Kind != sample.ConnRefused {
						t.Fatalf("%d not sent, %d requests (%v); want 0 and 6 refused", len(rec.notSent), len(rec.reqs), rec.reqs)
					}
					return
				}
				if len(rec.reqs) != 0 {
					t.Fatalf("%d requests recorded (the first: %v %q), want none", len(rec.reqs), rec.reqs[0].Kind, rec.reqs[0].Err)
				}
				if len(rec.notSent) != 3 {
					t.Fatalf("%d iterations not sent, want 3", len(rec.notSent))
				}
				for _, why := range rec.notSent {
					if !strings.HasPrefix(why, tt.why) {
						t.Fatalf("reason %q, want %q…", why, tt.why)
					}
				}
			})
		}
	}
}

// TestNotSentKeepsThePace: a VU whose request is not sent still waits the
// flow's think time, so a closed-model VU does not spin through iterations
// as fast as the CPU runs (a line break in every value would otherwise
// record millions of iterations a second). Its iterations are as many as
// a sent request's flow would make: bounded by duration / think.
func TestNotSentKeepsThePace(t *testing.T) {
	for _, parks := range []bool{false, true} { // the flow's last think parks a closed VU
		t.Run(map[bool]string{false: "sleeping", true: "parked"}[parks], func(t *testing.T) {
			flow := []plan.Step{get("http://127.0.0.1:1/u/a\r\nb"), think(50 * time.Millisecond)}
			if !parks {
				flow = append(flow, get("http://127.0.0.1:1/never")) // a think that is not last is slept
			}
			s := scenario(plan.Load{Model: plan.VUs, StartVUs: 2, Stages: []plan.Stage{{Duration: 300 * time.Millisecond, Target: 2}}}, flow...)
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, Options{})
			// 2 VUs, 300 ms, 50 ms each: about 12; a spinning VU makes thousands
			if rec.iterations == 0 || rec.iterations > 40 || len(rec.notSent) != rec.iterations || len(rec.reqs) != 0 {
				t.Errorf("%d iterations, %d not sent, %d requests; want about 12, all not sent, none sent", rec.iterations, len(rec.notSent), len(rec.reqs))
			}
		})
	}
}
