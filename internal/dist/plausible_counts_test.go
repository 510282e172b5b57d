package dist

import (
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// countsTest has a closed scenario whose request is checked twice (a
// check and an extraction) and an open one of 10 arrivals a second.
const countsTest = `name: counts
base_url: http://127.0.0.1:1
scenarios:
  c:
    vus: 4
    duration: 10s
    flow:
      - get: /c
        check: [status: 200]
        extract:
          tok: {json: $.token}
  o:
    rate: 10
    duration: 10s
    flow:
      - get: /o
`

// honestSecond is second sec of the first of two agents running
// countsTest: 5 requests of each endpoint, their checks passed, the 5
// arrivals its half of the schedule offered, 2 VUs of "c" and 1 of "o".
func honestSecond(layout sample.Layout, sec int) *metrics.Snapshot {
	s := metrics.NewSnapshot(sec, layout)
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		e.Requests, e.Duration = 5, metrics.NewHist()
		for range 5 {
			e.Duration.Record(time.Millisecond)
		}
		e.Sends = metrics.Sends{FirstStart: time.Duration(sec) * time.Second, LastStart: time.Duration(sec) * time.Second, LastEnd: time.Duration(sec)*time.Second + time.Millisecond, Kept: true}
	}
	for i := range s.Checks {
		s.Checks[i].Passes = 5
	}
	s.Scenarios[0].Iterations, s.Scenarios[0].VUs, s.Scenarios[0].VUsMax = 5, 2, 2
	s.Scenarios[1].Iterations, s.Scenarios[1].Offered, s.Scenarios[1].VUs, s.Scenarios[1].VUsMax = 5, 5, 1, 1
	return s
}

// TestRefuseSecondBoundsEveryCount: of an agent's seconds 0 and 1, changed
// by tamper, the first refused is with want; both are taken when want is "". The trial's
// fake agent sent 10×requests+7 failures, 3×requests+5 truncated bodies,
// 999,999 fails of a check, 123,456 drops of a closed model and 2^40 VUs
// a second, and the run showed "502.50% failed" and "vus.max:
// 1099511627778".
func TestRefuseSecondBoundsEveryCount(t *testing.T) {
	p, err := plan.Parse("counts.yaml", []byte(countsTest), nil)
	if err != nil {
		t.Fatal(err)
	}
	seg := segments(2)[0]
	c, o := func(s *metrics.Snapshot) *metrics.EndpointSecond { return &s.Endpoints[0] }, func(s *metrics.Snapshot) *metrics.ScenarioSecond { return &s.Scenarios[1] }
	for _, tc := range []struct {
		name   string
		tamper func(s *metrics.Snapshot) // on both seconds; s.Second tells them apart
		want   string
	}{
		{"honest", func(*metrics.Snapshot) {}, ""},
		{"every request failed, every body cut", func(s *metrics.Snapshot) {
			c(s).Failures[sample.HTTP5xx], c(s).Failures[sample.Timeout], c(s).Truncated = 3, 2, 5
		}, ""},
		{"checks of second 0's requests counted in second 1", func(s *metrics.Snapshot) {
			s.Checks[0].Passes = map[int]int64{0: 3, 1: 7}[s.Second]
		}, ""},
		{"drops and VUs at their bounds", func(s *metrics.Snapshot) {
			o(s).Dropped, o(s).Iterations, s.Scenarios[0].VUs = 5, 0, 3
		}, ""},
		{"the trial's failures: 10×requests+7", func(s *metrics.Snapshot) {
			c(s).Failures[sample.HTTP5xx] = 57
		}, `endpoint "GET /c": 57 http_5xx failures, and 0 of other kinds, in a second of 5 requests`},
		{"failures of two kinds past the requests", func(s *metrics.Snapshot) {
			c(s).Failures[sample.HTTP5xx], c(s).Failures[sample.Timeout] = 3, 3
		}, `endpoint "GET /c": 3 timeout failures, and 3 of other kinds, in a second of 5 requests`},
		{"negative failures", func(s *metrics.Snapshot) {
			c(s).Failures[sample.HTTP4xx] = -8698
		}, `endpoint "GET /c": http_4xx failures: negative value -8698`},
		{"the trial's truncated bodies: 3×requests+5", func(s *metrics.Snapshot) {
			c(s).Truncated = 20
		}, `endpoint "GET /c": 20 truncated bodies in a second of 5 requests`},
		{"the trial's check: 999,999 fails", func(s *metrics.Snapshot) {
			s.Checks[0].Fails = 999_999
		}, `check "status is 200": 5 passed and 999,999 failed, and 0 run before, more than its 5 requests can run (5, 1 a request)`},
		{"check runs past the requests over two seconds", func(s *metrics.Snapshot) {
			s.Checks[1].Passes = map[int]int64{0: 5, 1: 6}[s.Second]
		}, `check "extract tok": 6 passed and 0 failed, and 5 run before, more than its 10 requests can run (10, 1 a request)`},
		{"failures on a 404 whose body is not JSON", func(s *metrics.Snapshot) {
			ck := &s.Checks[0]
			ck.Passes, ck.Fails, ck.NotJSON = 3, 2, 2
			ck.Statuses = []metrics.CheckStatus{{Status: 200, Passes: 3}, {Status: 404, Fails: 2}}
		}, ""},
		{"bodies not JSON past the fails", func(s *metrics.Snapshot) {
			ck := &s.Checks[0]
			ck.Passes, ck.Fails, ck.NotJSON, ck.NoValue = 3, 2, 2, 1
		}, `check "status is 200": 2 failures on bodies not JSON and 1 without the value, of 2 failures`},
		{"outcomes by status past the check's", func(s *metrics.Snapshot) {
			s.Checks[0].Statuses = []metrics.CheckStatus{{Status: 200, Passes: 4}, {Status: 201, Passes: 4}}
		}, `check "status is 200": status 201: 4 passed and 0 failed, past the check's 5 and 0`},
		{"negative check fails", func(s *metrics.Snapshot) {
			s.Checks[0].Fails = -1
		}, `check "status is 200": negative value -1`},
		{"the trial's drops in a closed model", func(s *metrics.Snapshot) {
			s.Scenarios[0].Dropped = 123_456
		}, `scenario "c": 123,456 dropped and 0 offered iterations in a closed model, which has neither`},
		{"arrivals offered in a closed model", func(s *metrics.Snapshot) {
			s.Scenarios[0].Offered = 1
		}, `scenario "c": 0 dropped and 1 offered iterations in a closed model, which has neither`},
		{"drops past the open model's schedule", func(s *metrics.Snapshot) {
			o(s).Dropped = map[int]int64{0: 5, 1: 123_456}[s.Second]
		}, `scenario "o": 123,456 dropped iterations, and 5 before, more than its share of the schedule has due by the end of second 1 (15)`},
		{"offered past the open model's schedule", func(s *metrics.Snapshot) {
			o(s).Offered = 6
		}, `scenario "o": 6 arrivals offered in second 0, more than its share of the schedule (5)`},
		{"negative drops", func(s *metrics.Snapshot) {
			o(s).Dropped = -1
		}, `scenario "o": dropped iterations: negative value -1`},
		{"the trial's VUs: 2^40", func(s *metrics.Snapshot) {
			s.Scenarios[0].VUs = 1 << 40
		}, `scenario "c": 1,099,511,627,776 VUs active and 2 allocated, more than its share of the test's (3)`},
		{"allocated VUs past the segment's", func(s *metrics.Snapshot) {
			s.Scenarios[0].VUsMax = 4
		}, `scenario "c": 2 VUs active and 4 allocated, more than its share of the test's (3)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tl tally
			var err error
			for sec := 0; sec < 2 && err == nil; sec++ {
				s := honestSecond(p.Layout, sec)
				tc.tamper(s)
				err = refuseSecond(p, seg, &tl, s)
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// closedTest is the trial's test cut to 2 seconds: a closed model of 4
// VUs whose request is checked.
const closedTest = "name: closed\nbase_url: %s\nscenarios:\n  s:\n    vus: 4\n    duration: 2s\n    graceful_stop: 1s\n    flow:\n      - get: /g\n        check: [status: 200]\n"

// TestAgentsImpossibleFailuresEndIt: the trial's fake agent, whose
// seconds after the first hold 10×requests+7 failures, 3×requests+5
// truncated bodies, 999,999 fails of a check, 123,456 drops of a closed
// model and 2^40 VUs, is ended as faulty at its first such second, and
// none of them reach the run: it showed "502.50% failed" and "6,999,993 ✗".
func TestAgentsImpossibleFailuresEndIt(t *testing.T) {
	res, out := runRogueTest(t, closedTest, func(c *conn, _ net.Conn, l sample.Layout) {
		for sec := range 3 {
			s := metrics.NewSnapshot(sec, l)
			e := &s.Endpoints[0]
			e.Requests, e.Duration = 5, histOf(0)
			for range 4 {
				e.Duration.Record(time.Millisecond)
			}
			s.Checks[0].Passes, s.Scenarios[0].Iterations, s.Scenarios[0].VUs = 5, 5, 4
			if sec > 0 {
				e.Failures[sample.HTTP5xx], e.Truncated, s.Checks[0].Fails = e.Requests*10+7, e.Requests*3+5, 999_999
				s.Scenarios[0].Dropped, s.Scenarios[0].VUs = 123_456, 1<<40
			}
			b, _ := s.MarshalBinary()
			_ = c.send(kindSecond, secondFrame(secondHead{sec: sec, cpu: 0.1, stall: math.NaN(), wait: math.NaN()}, b))
		}
		_ = c.send(kindDone, done{Seconds: 3})
	})
	if res.Status != app.StatusPartial || res.ExitCode != app.ExitRunFailed {
		t.Errorf("status %s, exit %d; want partial, %d\n%.3000s", res.Status, res.ExitCode, app.ExitRunFailed, out)
	}
	want := `sent a bad second: endpoint "GET /g": 57 http_5xx failures, and 0 of other kinds, in a second of 5 requests`
	if !strings.Contains(out, want) {
		t.Errorf("the output lacks %q:\n%.3000s", want, out)
	}
	run := readRun(t, res.Dir)
	e, sc, ck := &run.Endpoints[0], &run.Scenarios[0], &run.Checks[0]
	if e.Requests != 5 || e.Failures[sample.HTTP5xx] != 0 || e.Truncated != 0 || ck.Fails != 0 || sc.Dropped != 0 {
		t.Errorf("run.db has %d requests, %d failures, %d truncated, %d check fails, %d dropped; want second 0's 5 requests and nothing else",
			e.Requests, e.Failures[sample.HTTP5xx], e.Truncated, ck.Fails, sc.Dropped)
	}
}
