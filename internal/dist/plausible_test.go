package dist

import (
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// histOf is a histogram of 2^doublings samples of 1 ms.
func histOf(doublings int) *metrics.Hist {
	h := metrics.NewHist()
	h.Record(time.Millisecond)
	for range doublings {
		h.Merge(h.Clone())
	}
	return h
}

// sendTampered sends second sec of 5 requests of 1 ms, changed by tamper.
func sendTampered(c *conn, layout sample.Layout, sec int, tamper func(s *metrics.Snapshot)) {
	s := metrics.NewSnapshot(sec, layout)
	s.Endpoints[0].Requests, s.Endpoints[0].Duration = 5, metrics.NewHist()
	for range 5 {
		s.Endpoints[0].Duration.Record(time.Millisecond)
	}
	s.Scenarios[0].Iterations = 5
	tamper(s)
	b, _ := s.MarshalBinary()
	_ = c.send(kindSecond, secondFrame(secondHead{sec: sec, cpu: 0.1, stall: math.NaN(), wait: math.NaN()}, b))
}

// TestAgentsImpossibleCountsEndIt: a second whose counts could not be
// true ends the agent as faulty, with its seconds before kept, the run a
// partial load that fails. A proxy that added 2^62 requests, and a
// histogram of 2^62 samples, to an agent's seconds made a run of 800
// requests say -9,223,372,036,854,775,008 of them, and pass.
func TestAgentsImpossibleCountsEndIt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(s *metrics.Snapshot)
		want   string
	}{
		{"the trial's: 2^62 more requests, a histogram of 2^62", func(s *metrics.Snapshot) {
			s.Endpoints[0].Requests += 1 << 62
			s.Endpoints[0].Duration = histOf(62)
		}, `endpoint "GET /g": its duration histogram holds 4,611,686,018,427,387,904 requests, the second 4,611,686,018,427,387,909 requests`},
		{"more requests than its VUs could complete", func(s *metrics.Snapshot) {
			s.Endpoints[0].Requests, s.Endpoints[0].Duration = 1<<62, histOf(62)
		}, `endpoint "GET /g": 4,611,686,018,427,387,904 requests in a second, more than its`},
		{"more iterations than its VUs could complete", func(s *metrics.Snapshot) {
			s.Scenarios[0].Iterations = 1 << 40
		}, `scenario "s": 1,099,511,627,776 iterations in a second, more than its`},
		{"requests ended long after their second", func(s *metrics.Snapshot) {
			s.Endpoints[0].Sends = metrics.Sends{FirstStart: time.Second, LastStart: time.Second, LastEnd: 1 << 62, Kept: true}
		}, `endpoint "GET /g": its requests were sent from 1.00s into the run and ended by 1281023h53m38s, not between the start and the end of second 1 (and 10.00s)`},
		{"a histogram short of the requests", func(s *metrics.Snapshot) {
			s.Endpoints[0].Requests = 7
		}, `endpoint "GET /g": its duration histogram holds 5 requests, the second 7 requests`},
		{"more bytes than a host can receive", func(s *metrics.Snapshot) {
			s.Endpoints[0].Received = 1 << 62
		}, `bytes received: 4611686.0 TB in a second, more than a host can move (10.0 TB)`},
		{"counts past int64 over two seconds", func(s *metrics.Snapshot) {
			s.Endpoints[0].Connects = 1 << 62
		}, `endpoint "GET /g": connects: 4611686018427387904 would take the run's counts past the largest 64-bit integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tampered := 1 // after second 0, sent as measured
			if strings.HasPrefix(tc.name, "counts past") {
				tampered = 0 // its first second of 2^62 fits; the next one's would not
			}
			res, out := runRogue(t, func(c *conn, nc net.Conn, l sample.Layout) {
				if tampered == 1 {
					sendSeconds(c, l, 0)
				}
				sendTampered(c, l, tampered, tc.tamper)
				sendTampered(c, l, tampered+1, tc.tamper)
				_ = c.send(kindDone, done{Seconds: tampered + 2}) // taken whole, the run would be complete
			})
			if res.Status != app.StatusPartial || res.ExitCode != app.ExitRunFailed {
				t.Errorf("status %s, exit %d; want partial, %d\n%.3000s", res.Status, res.ExitCode, app.ExitRunFailed, out)
			}
			for _, w := range []string{"agent 1 (", "was lost at 0:0", "sent a bad second: " + tc.want, "PARTIAL LOAD"} {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %q:\n%.3000s", w, out)
				}
			}
			if strings.Contains(out, "-9,") || strings.Contains(out, " -0.00%") {
				t.Errorf("the output has a negative count:\n%.3000s", out)
			}
			if got := totalRequests(readRun(t, res.Dir)); got != 5 {
				t.Errorf("run.db has %d requests, want the 5 of second 0, sent before the agent went wrong", got)
			}
		})
	}
}
