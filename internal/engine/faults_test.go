package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// faultRun is the load every fault case runs: a few VUs for 800ms, then a
// graceful stop of 400ms that cuts off whatever is still in flight.
const (
	faultVUs      = 3
	faultDuration = 800 * time.Millisecond
	faultGrace    = 400 * time.Millisecond
	// faultAnsweredGrace is the graceful stop of a fault answered at once
	// (no interrupted kind): on a quiet host the run ends as its last
	// request fails, within milliseconds; on a busy one (load 20, -race) a
	// TLS handshake took 2.9 s and was cut off, interrupted, by the 400 ms
	// one, a kind the fault does not explain. The run's time is bounded
	// by its duration and this stop.
	faultAnsweredGrace = 5 * time.Second
	// faultMemory bounds the heap a fault run may add: 100 MB bodies
	// through 3 VUs would take 300 MB if a client kept them.
	faultMemory = 48 << 20
)

// TestFaults runs each fault of issue 9 through both clients. Each run must
// end on time, stay within the memory bound, leak no goroutine, and count
// every request the server received, under the kinds the fault explains.
func TestFaults(t *testing.T) {
	cases := []struct {
		name      string
		mode      faultserver.Mode
		timeout   time.Duration
		needBody  bool
		kinds     []sample.Kind // every sample is one of these
		netKinds  []sample.Kind // net/http's, where they differ
		byConns   bool          // the server counts connections: the request never got through TLS
		truncated bool          // a complete response's kept body was cut at max_body
		bytes     bool          // the server reads each request whole and nothing else: its bytes are the samples'
		handshake time.Duration // the TLS handshake timeout; 0: the default
	}{
		{name: "hang after accept", mode: faultserver.Hang, timeout: time.Minute, kinds: []sample.Kind{sample.Interrupted}},
		{name: "slowloris", mode: faultserver.Slowloris, timeout: time.Minute, kinds: []sample.Kind{sample.Interrupted}},
		{name: "slowloris past the request timeout", mode: faultserver.Slowloris, timeout: 200 * time.Millisecond,
			kinds: []sample.Kind{sample.Timeout, sample.Interrupted}},
		{name: "100 MB body checked", mode: faultserver.HugeBody, timeout: time.Minute, needBody: true,
			kinds: []sample.Kind{sample.OK, sample.Interrupted}, truncated: true},
		{name: "100 MB body", mode: faultserver.HugeBody, timeout: time.Minute, kinds: []sample.Kind{sample.OK, sample.Interrupted}},
		{name: "reset mid-response", mode: faultserver.ResetMidResponse, timeout: time.Minute, kinds: []sample.Kind{sample.ConnReset}, bytes: true},
		{name: "close without response", mode: faultserver.CloseWithoutResponse, timeout: time.Minute, kinds: []sample.Kind{sample.ConnReset}, bytes: true},
		{name: "100 Continue and 103 Early Hints", mode: faultserver.Informational, timeout: time.Minute, kinds: []sample.Kind{sample.OK}},
		// net/http may take a connection back before it notices the stray bytes; the next request then fails, and is counted
		{name: "stray bytes after a response", mode: faultserver.StrayBytes, timeout: time.Minute, kinds: []sample.Kind{sample.OK},
			netKinds: []sample.Kind{sample.OK, sample.Other}},
		{name: "Content-Length: 12x", mode: faultserver.BadContentLength, timeout: time.Minute, kinds: []sample.Kind{sample.Other}},
		{name: "two Content-Lengths", mode: faultserver.ConflictingContentLength, timeout: time.Minute, kinds: []sample.Kind{sample.Other}},
		{name: "redirect loop", mode: faultserver.RedirectLoop, timeout: time.Minute, kinds: []sample.Kind{sample.Redirect}},
		{name: "TLS with a bad certificate", mode: faultserver.TLSBadCert, timeout: time.Minute, kinds: []sample.Kind{sample.TLS}, byConns: true},
		// Ended by the handshake timeout, not the request's: a 200 ms request timeout also bounds
		// the connect, which a busy host left unfinished ("timeout while connecting": lean twice, net-http once);
		// TestTimeoutsSayWhichFired has the request timeout in a hung handshake.
		{name: "TLS handshake that hangs", mode: faultserver.TLSHang, timeout: time.Minute, handshake: 200 * time.Millisecond,
			kinds: []sample.Kind{sample.TLS, sample.Interrupted}, byConns: true},
		{name: "plain HTTP on a TLS port", mode: faultserver.PlainOnTLSPort, timeout: time.Minute, kinds: []sample.Kind{sample.TLS}, byConns: true},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				checkLeaks(t)
				srv := faultserver.Start(t, c.mode, faultserver.Options{})
				step := get(srv.URL + "/fault")
				step.Request.Timeout = c.timeout
				if c.needBody {
					step.Request.NeedBody = true
					step.Request.Checks = []plan.Check{{ID: 0, Name: "body", From: plan.FromBody, Op: plan.OpContains, Values: []string{"\x00\x00"}}}
				}
				s := scenario(plan.Load{Model: plan.VUs, StartVUs: faultVUs, Stages: []plan.Stage{{Duration: faultDuration, Target: faultVUs}}}, step)
				s.GracefulStop = faultGrace
				if !slices.Contains(c.kinds, sample.Interrupted) {
					s.GracefulStop = faultAnsweredGrace
				}
				rec := newTestRecorder()
				rec.tally = &tally{check: func(q *sample.Request) string {
					if q.Kind == sample.OK && q.Truncated != c.truncated {
						return fmt.Sprintf("truncated = %v, want %v", q.Truncated, c.truncated)
					}
					if q.Kind == sample.Interrupted && (q.Status != 0 || q.Duration <= 0 || !strings.HasPrefix(q.Err, "interrupted: ")) {
						return "an interrupted sample without its lower-bound duration or message"
					}
					return ""
				}}
				opts := cl.opts
				opts.TLSHandshakeTimeout = c.handshake
				mem := memoryPeak()
				starved := starvation()
				_, took := runPlanInto(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, opts, rec)
				waited := starved()
				peak := mem()
				t.Logf("%d samples, heap and stacks +%d MiB, %v, threads kept waiting for a CPU %v", rec.count(), peak>>20, took, waited)

				// Its duration and graceful stop, and what the host kept it waiting: a run of
				// 5.2 s with the 5 s stop failed a limit made for the 400 ms one; another, of
				// TLS handshakes, took 5.3 s on a busy host. A hang past the stop still fails.
				if limit := faultDuration + s.GracefulStop + 3*time.Second + waited; took > limit {
					t.Errorf("the run took %v, want at most %v", took, limit)
				}
				if peak > faultMemory {
					t.Errorf("the heap grew by %d MiB, want at most %d MiB", peak>>20, faultMemory>>20)
				}
				if rec.count() == 0 {
					t.Fatal("no request recorded")
				}
				kinds := c.kinds
				if c.netKinds != nil && cl.name == "net-http" {
					kinds = c.netKinds
				}
				kindsIn(t, rec, kinds...)
				// A request whose connection was still being dialled at its timeout
				// (200 ms, on a loaded host under -race) never reached the server.
				served, counted := srv.Requests, rec.reached
				if c.byConns {
					served, counted = srv.Conns, rec.sent
				}
				waitFor(func() bool { return served() == counted() })
				if served() != counted() {
					t.Errorf("the server received %d requests, loadlens counted %d past their dial, %d in all (%s)",
						served(), rec.reached(), rec.sent(), rec.kindNames())
				}
				if c.bytes && srv.Received() != rec.sentBytes() {
					t.Errorf("the server read %d bytes, loadlens counted %d sent", srv.Received(), rec.sentBytes())
				}
				if rec.tally.broken != "" {
					t.Fatal(rec.tally.broken)
				}
			})
		}
	}
}

// TestDeadTargetIsCounted is issue 9's first run: an open model against a
// server that accepts and never answers. Every arrival's request reached
// the server, and every one is recorded, cut off by the graceful stop.
func TestDeadTargetIsCounted(t *testing.T) {
	for _, cl := range clients() {
		t.Run(cl.name, func(t *testing.T) {
			checkLeaks(t)
			srv := faultserver.Start(t, faultserver.Hang, faultserver.Options{})
			load := plan.Load{Model: plan.ArrivalRate, StartRate: 20, Stages: []plan.Stage{{Duration: time.Second, Target: 20}}, PreAllocatedVUs: 5, MaxVUs: 100}
			s := scenario(load, get(srv.URL))
			s.GracefulStop = 300 * time.Millisecond
			rec, took := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
			if took > 3*time.Second {
				t.Errorf("the run took %v", took)
			}
			kindsIn(t, rec, sample.Interrupted)
			// On a host busy enough to stall the scheduler past the schedule's end, the last
			// arrival is rightly dropped (it could not start in time): every arrival is still
			// either sent, and then counted by the server, or dropped, never lost.
			waitFor(func() bool { return srv.Requests() == int64(len(rec.reqs)) })
			if len(rec.reqs)+rec.dropped != 20 || srv.Requests() != int64(len(rec.reqs)) || rec.dropped > 2 {
				t.Fatalf("recorded %d, the server received %d, dropped %d; want 20 in all, the server's = recorded, at most 2 dropped",
					len(rec.reqs), srv.Requests(), rec.dropped)
			}
			if rec.dropped > 0 {
				t.Logf("%d arrivals dropped on a busy host", rec.dropped)
			}
		})
	}
}
