package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestStalledUploadBlamesTheWrite: a target that reads a request's head and
// never its body stalls the upload once the sockets' buffers are full; the
// timeout says the request was being written, and how much went out.
// Before, it said "waiting for the response", as if the request had gone.
func TestStalledUploadBlamesTheWrite(t *testing.T) {
	const bodySize = 64 << 20 // more than loopback's socket buffers take
	body := strings.Repeat("x", bodySize)
	for _, cl := range clients() {
		t.Run(cl.name, func(t *testing.T) {
			checkLeaks(t)
			srv := faultserver.Start(t, faultserver.StopReading, faultserver.Options{})
			step := get(srv.URL + "/upload")
			step.Request.Method, step.Request.Body, step.Request.BodyKind = "POST", tmpl.Literal(body), plan.RawBody
			// long enough for a busy host to copy the 64 MiB body and dial
			// first (300 ms timed out "while connecting" under the test command)
			step.Request.Timeout = 2 * time.Second
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, step)
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
			if len(rec.reqs) != 1 {
				t.Fatalf("%d samples", len(rec.reqs))
			}
			q := rec.reqs[0]
			const want = "request timeout (2s) writing the request body: the server stopped reading it, "
			if q.Kind != sample.Timeout || !strings.HasPrefix(q.Err, want) || !strings.HasSuffix(q.Err, " of a 67.1 MB body written (the head included)") {
				t.Fatalf("kind %v %q, want a timeout %q...", q.Kind, q.Err, want)
			}
			if q.Sent <= 0 || q.Sent >= bodySize {
				t.Errorf("%d bytes sent, want some of the %d-byte body", q.Sent, bodySize)
			}
		})
	}
}
