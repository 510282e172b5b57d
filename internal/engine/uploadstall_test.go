package engine

import (
	"runtime"
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
			step.Request.Timeout = uploadTimeout(body)
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, step)
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
			if len(rec.reqs) != 1 {
				t.Fatalf("%d samples", len(rec.reqs))
			}
			q := rec.reqs[0]
			want := "request timeout (" + step.Request.Timeout.String() + ") writing the request body: the server stopped reading it, "
			if q.Kind != sample.Timeout || !strings.HasPrefix(q.Err, want) || !strings.HasSuffix(q.Err, " of a 67.1 MB body written (the head included)") {
				t.Fatalf("kind %v %q, want a timeout %q...", q.Kind, q.Err, want)
			}
			if q.Sent <= 0 || q.Sent >= bodySize {
				t.Errorf("%d bytes sent, want some of the %d-byte body", q.Sent, bodySize)
			}
		})
	}
}

// uploadTimeout is a request timeout that leaves the client time to copy
// body into its write buffer and dial before the deadline: the timeout
// counts from before that copy, which took 1.2-2.2 s under -race at load 7
// (2 s timed out "while connecting" at load 20). It is 2 s or three times
// such a copy on this host, whichever is longer, in whole seconds.
func uploadTimeout(body string) time.Duration {
	start := time.Now()
	buf := append(make([]byte, 0, len(body)+512), body...)
	copied := time.Since(start)
	runtime.KeepAlive(buf)
	return max(2*time.Second, (3 * copied).Round(time.Second))
}
