package engine

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestAResetIsOneFailedRequest: a server that reads each request whole and
// answers every fifth with a reset. Each reset request is one request the
// server read, so the run counts it once, failed (conn_reset), and never
// sends it again: the run's requests are the server's, and its failures
// the server's resets, in the closed and the open model. (The lean client
// only: net/http's Transport sends such a GET again by itself, see
// docs/http-client.md.)
func TestAResetIsOneFailedRequest(t *testing.T) {
	loads := []struct {
		name string
		load plan.Load
	}{
		{"closed", plan.Load{Model: plan.Iterations, VUCount: 4, Count: 400, MaxDuration: 30 * time.Second}},
		{"open", plan.Load{Model: plan.ArrivalRate, StartRate: 400, Stages: []plan.Stage{{Duration: time.Second, Target: 400}},
			PreAllocatedVUs: 8, MaxVUs: 100}},
	}
	for _, l := range loads {
		t.Run(l.name, func(t *testing.T) {
			checkLeaks(t)
			srv := faultserver.Start(t, faultserver.ResetSome, faultserver.Options{ResetEvery: 5})
			s := scenario(l.load, get(srv.URL+"/x"))
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, Options{})
			kindsIn(t, rec, sample.OK, sample.ConnReset)
			failed := 0
			for _, q := range rec.reqs {
				if q.Kind != sample.OK {
					failed++
				}
			}
			waitFor(func() bool { return srv.Requests() == rec.sent() })
			if srv.Requests() != rec.sent() || int64(failed) != srv.Resets() || failed == 0 {
				t.Fatalf("the server read %d requests and reset %d; the run counted %d, %d failed",
					srv.Requests(), srv.Resets(), rec.sent(), failed)
			}
			t.Logf("%d requests, %d reset (%.1f %%), on %d connections", rec.sent(), failed, 100*float64(failed)/float64(rec.sent()), srv.Conns())
		})
	}
}

// TestAKeepAliveTimeoutFailsNothing: a server that closes connections idle
// for 30ms, at rates whose gaps are well below and well above it. A
// request never goes out on a connection the server had closed (the idle
// check before each reuse drops it), so none fails and the server reads
// every request once. The idle close is judged on the gaps the run had,
// not the schedule's: on a busy host a late arrival's successors bunch up
// behind it (the one VU sends them back to back), and those reuse the
// connection whatever the rate.
func TestAKeepAliveTimeoutFailsNothing(t *testing.T) {
	const idle = 30 * time.Millisecond
	cases := []struct {
		name      string
		rate      float64
		duration  time.Duration
		freshEach bool // every request finds its connection closed
	}{
		{"gaps of 100ms", 10, 1500 * time.Millisecond, true},
		{"gaps of 5ms", 200, time.Second, false},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				checkLeaks(t)
				srv := faultserver.Start(t, faultserver.IdleClose, faultserver.Options{Idle: idle})
				load := plan.Load{Model: plan.ArrivalRate, StartRate: c.rate, Stages: []plan.Stage{{Duration: c.duration, Target: c.rate}},
					PreAllocatedVUs: 1, MaxVUs: 1} // one VU, one connection at a time: its gaps are the rate's
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(srv.URL+"/x"))}}, cl.opts)
				kindsIn(t, rec, sample.OK)
				waitFor(func() bool { return srv.Requests() == rec.sent() })
				if srv.Requests() != rec.sent() || rec.sent() == 0 {
					t.Fatalf("the server read %d requests, the run counted %d", srv.Requests(), rec.sent())
				}
				// past twice the idle, the server had closed (its timer late by up to one idle);
				// a whole cycle within half of it, it had not
				long, short := gapsOf(rec.reqs, 2*idle, idle/2)
				conns, reqs := srv.Conns(), srv.Requests()
				if c.freshEach && (long == 0 || conns < 1+int64(long)) || !c.freshEach && (short == 0 || conns > reqs-int64(short)) {
					t.Errorf("%d connections for %d requests, %d gaps past %v, %d cycles within %v: the server's idle close did not happen as the gaps say",
						conns, reqs, long, 2*idle, short, idle/2)
				}
			})
		}
	}
}

// gapsOf counts, in one VU's requests in order, those whose intended start
// was more than long past the previous one's end (its connection idle at
// least that long), and those that ended within short of the previous one's
// end (idle less than that).
func gapsOf(reqs []sample.Request, long, short time.Duration) (longGaps, shortGaps int) {
	reqs = slices.SortedFunc(slices.Values(reqs), func(a, b sample.Request) int { return cmp.Compare(a.End, b.End) })
	for i := 1; i < len(reqs); i++ {
		prev := reqs[i-1].End
		if reqs[i].End-reqs[i].Duration-prev > long {
			longGaps++
		}
		if reqs[i].End-prev <= short {
			shortGaps++
		}
	}
	return longGaps, shortGaps
}
