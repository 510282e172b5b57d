package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestTimeoutsSayWhichFired: a failure is recorded when it surfaced, not at
// the request timeout, and its message names the timeout that fired.
func TestTimeoutsSayWhichFired(t *testing.T) {
	const short, long = 300 * time.Millisecond, 20 * time.Second
	cases := []struct {
		name           string
		url            func(t *testing.T) string
		requestTimeout time.Duration
		opts           Options
		kind           sample.Kind
		msg            string
		at             time.Duration
	}{
		{"the request timeout, waiting for the response", func(t *testing.T) string { return faultserver.Start(t, faultserver.Hang, faultserver.Options{}).URL },
			short, Options{}, sample.Timeout, "request timeout (300ms) waiting for the response", short},
		{"the connect timeout", func(t *testing.T) string { return "http://" + faultserver.Unaccepting(t) },
			long, Options{ConnectTimeout: short}, sample.Timeout, "connect timeout (300ms)", short},
		{"the request timeout, while connecting", func(t *testing.T) string { return "http://" + faultserver.Unaccepting(t) },
			short, Options{ConnectTimeout: long}, sample.Timeout, "request timeout (300ms) while connecting", short},
		{"the TLS handshake timeout", func(t *testing.T) string { return faultserver.Start(t, faultserver.TLSHang, faultserver.Options{}).URL },
			long, Options{TLSHandshakeTimeout: short}, sample.TLS, "TLS handshake timeout (300ms)", short},
		{"the request timeout, in the TLS handshake", func(t *testing.T) string { return faultserver.Start(t, faultserver.TLSHang, faultserver.Options{}).URL },
			short, Options{TLSHandshakeTimeout: long}, sample.TLS, "TLS handshake unfinished at the request timeout (300ms)", short},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				checkLeaks(t)
				step := get(c.url(t) + "/x")
				step.Request.Timeout = c.requestTimeout
				opts := c.opts
				opts.NetHTTPOnly = cl.opts.NetHTTPOnly
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, step)
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, opts)
				if len(rec.reqs) != 2 {
					t.Fatalf("%d samples", len(rec.reqs))
				}
				for _, q := range rec.reqs {
					if q.Kind != c.kind || q.Err != c.msg {
						t.Fatalf("kind %v %q, want %v %q", q.Kind, q.Err, c.kind, c.msg)
					}
					if q.Duration < c.at || q.Duration > c.at+2*time.Second {
						t.Fatalf("recorded at %v, want when it fired, about %v", q.Duration, c.at)
					}
				}
			})
		}
	}
}

// TestInterruptsAtOnce: stopping the run cuts off requests at once however
// far they got (connecting, in the TLS handshake, waiting for the answer),
// and records each as interrupted with the reason the run stopped.
func TestInterruptsAtOnce(t *testing.T) {
	const vus = 2
	cases := []struct {
		name  string
		start func(t *testing.T) (url string, arrived func() bool)
	}{
		{"waiting for the response", func(t *testing.T) (string, func() bool) {
			srv := faultserver.Start(t, faultserver.Hang, faultserver.Options{})
			return srv.URL, func() bool { return srv.Requests() == vus }
		}},
		{"in the TLS handshake", func(t *testing.T) (string, func() bool) {
			srv := faultserver.Start(t, faultserver.TLSHang, faultserver.Options{})
			return srv.URL, func() bool { return srv.Conns() == vus }
		}},
		{"connecting", func(t *testing.T) (string, func() bool) {
			return "http://" + faultserver.Unaccepting(t), func() bool { return true }
		}},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				checkLeaks(t)
				url, arrived := c.start(t)
				s := scenario(plan.Load{Model: plan.VUs, StartVUs: vus, Stages: []plan.Stage{{Duration: time.Minute, Target: vus}}}, get(url+"/x"))
				s.Flow[0].Request.Timeout = time.Minute
				rec := newTestRecorder()
				opts := cl.opts
				opts.ConnectTimeout, opts.TLSHandshakeTimeout = time.Minute, time.Minute
				e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, opts)
				ctx, cancel := context.WithCancelCause(context.Background())
				done := make(chan error, 1)
				go func() { done <- e.Run(ctx) }()
				if !waitFor(func() bool { return e.scens[0].inflight.Load() == vus && arrived() }) {
					t.Fatal("the requests never got under way")
				}
				stopped := time.Now()
				cancel(errors.New("abort_on_fail: p(95)<500ms crossed"))
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					t.Fatal("Run did not return after the cancel")
				}
				if took := time.Since(stopped); took > 2*time.Second {
					t.Errorf("Run returned %v after the cancel", took)
				}
				if len(rec.reqs) != vus {
					t.Fatalf("%d samples, want %d", len(rec.reqs), vus)
				}
				for _, q := range rec.reqs {
					if q.Kind != sample.Interrupted || q.Err != "interrupted: abort_on_fail: p(95)<500ms crossed" || q.Duration <= 0 {
						t.Fatalf("sample %+v", q)
					}
				}
			})
		}
	}
}

// TestGracefulStopSaysWhatItWaitsFor: when the schedule ends with requests
// in flight, one notice says how many and for how long; those still
// unanswered at the end of the graceful stop are recorded as cut off by it.
func TestGracefulStopSaysWhatItWaitsFor(t *testing.T) {
	srv := faultserver.Start(t, faultserver.Hang, faultserver.Options{})
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: 3, Stages: []plan.Stage{{Duration: 300 * time.Millisecond, Target: 3}}}, get(srv.URL))
	s.GracefulStop = 300 * time.Millisecond
	var mu sync.Mutex
	var notices []string
	opts := Options{Notify: func(m string) { mu.Lock(); notices = append(notices, m); mu.Unlock() }}
	rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, opts)
	if len(notices) != 1 || notices[0] != "3 requests in flight; waiting up to 300ms (graceful stop)" {
		t.Fatalf("notices %q", notices)
	}
	if len(rec.reqs) != 3 {
		t.Fatalf("%d samples, want 3", len(rec.reqs))
	}
	for _, q := range rec.reqs {
		// sent at most a little after the start (a busy host starts VUs late), cut off at 600ms: past the 300ms of the run
		if q.Kind != sample.Interrupted || q.Err != "interrupted: the graceful stop ended" || q.Duration < 450*time.Millisecond {
			t.Fatalf("sample %+v: want cut off by the graceful stop, after at least 450ms", q)
		}
	}
}

// TestRampDownInterruptsWhatIsLeft: a VU ramped down past its graceful
// ramp-down has its request recorded as interrupted, saying so.
func TestRampDownInterruptsWhatIsLeft(t *testing.T) {
	srv := faultserver.Start(t, faultserver.Hang, faultserver.Options{})
	load := plan.Load{Model: plan.VUs, StartVUs: 2, GracefulRampDown: 100 * time.Millisecond,
		Stages: []plan.Stage{{Duration: 200 * time.Millisecond, Target: 2}, {Duration: time.Millisecond, Target: 0}, {Duration: 2 * time.Second, Target: 0}}}
	rec, took := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(srv.URL))}}, Options{})
	if len(rec.reqs) != 2 || took > 3*time.Second {
		t.Fatalf("%d samples in %v", len(rec.reqs), took)
	}
	for _, q := range rec.reqs {
		if q.Kind != sample.Interrupted || !strings.Contains(q.Err, "ramped down") {
			t.Fatalf("sample %+v", q)
		}
	}
}
