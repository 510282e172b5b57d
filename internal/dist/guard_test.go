package dist

import (
	"encoding/binary"
	"fmt"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// guardTest is a 2-second test of one endpoint with a graceful stop of 1s:
// an agent's seconds may go up to 2+1+10 (the margin), 13 of them.
const guardTest = "name: guard\nbase_url: %s\nscenarios:\n  s:\n    rate: 10\n    duration: 2s\n    graceful_stop: 1s\n    flow:\n      - get: /g\n"

// runRogue runs guardTest with one fake agent that passes the handshake
// and then does act; it fails the test if the run does not end within a
// bound, as it did not when an agent's second number was taken as sent.
func runRogue(t *testing.T, act func(c *conn, nc net.Conn, layout sample.Layout)) (app.RunResult, string) {
	t.Helper()
	return runRogueTest(t, guardTest, act)
}

// runRogueTest is runRogue of test, a format of the server's URL.
func runRogueTest(t *testing.T, test string, act func(c *conn, nc net.Conn, layout sample.Layout)) (app.RunResult, string) {
	t.Helper()
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(test, srv.URL), nil)
	p, ln := parseAndListen(t, path)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		c := fakeHandshake(nc, p.Layout)
		if c == nil {
			return
		}
		act(c, nc, p.Layout)
		<-stop // hang up only when the test ends: the coordinator must end the agent itself
	}()
	type result struct {
		res app.RunResult
		out string
		err error
	}
	ended := make(chan result, 1)
	go func() {
		res, out, err := coordinateTest(t, Config{TestFile: path, Agents: []string{ln.Addr().String()}, Token: token, SecondWait: time.Second})
		ended <- result{res, out, err}
	}()
	select {
	case r := <-ended:
		if r.err != nil {
			t.Fatalf("Coordinate: %v\n%s", r.err, r.out)
		}
		return r.res, strings.Join(strings.Fields(r.out), " ")
	case <-time.After(90 * time.Second):
		t.Fatalf("a run of a 2-second test did not end within 90s")
	}
	return app.RunResult{}, ""
}

// sendSecond sends second sec of reqs requests of 1ms.
func sendSecond(c *conn, layout sample.Layout, sec int, reqs int64) {
	s := metrics.NewSnapshot(sec, layout)
	s.Endpoints[0].Requests, s.Endpoints[0].Duration = reqs, metrics.NewHist()
	for range reqs {
		s.Endpoints[0].Duration.Record(time.Millisecond)
	}
	b, _ := s.MarshalBinary()
	_ = c.send(kindSecond, secondFrame(secondHead{sec: sec, cpu: 0.1, stall: math.NaN(), wait: math.NaN()}, b))
}

// sendSeconds sends the seconds given, 5 requests each, in that order.
func sendSeconds(c *conn, layout sample.Layout, secs ...int) {
	for _, s := range secs {
		sendSecond(c, layout, s, 5)
	}
}

// TestAgentsNoticesAreBounded: an agent's notices are kept to a few a
// second and a run, the rest counted once; a long one is cut with a mark;
// one larger than a notice may be ends the agent as faulty, from its
// header, with its seconds kept. A rogue agent's 300 notices of 1 MiB
// took a coordinator to 3.36 GB and wrote each into the run directory.
func TestAgentsNoticesAreBounded(t *testing.T) {
	words := strings.Repeat("word ", 2000) // 10 kB
	for _, tc := range []struct {
		name    string
		act     func(c *conn, nc net.Conn, l sample.Layout)
		lost    bool
		want    []string
		notWant []string
		check   func(t *testing.T, out string)
	}{
		{name: "flood", act: func(c *conn, nc net.Conn, l sample.Layout) {
			for i := range 300 {
				_ = c.send(kindNotice, notice{Text: fmt.Sprintf("flood-%d.", i)})
			}
			sendSeconds(c, l, 0, 1, 2)
			_ = c.send(kindDone, done{Seconds: 3})
		}, check: func(t *testing.T, out string) {
			kept := 0 // the notices are in the output twice: as they came, and in the summary
			for i := range 300 {
				if strings.Contains(out, fmt.Sprintf("agent 1: flood-%d.", i)) {
					kept++
				}
			}
			left := 0
			if i := strings.Index(out, " more notices from agent 1 ("); i >= 0 {
				fmt.Sscan(out[strings.LastIndex(out[:i], " ")+1:i], &left)
			}
			if kept == 0 || kept > noticesPerRun || kept+left != 300 || strings.Count(out, "more notices from agent 1") > 2 {
				t.Errorf("%d notices shown and %d said left out, of 300; want at most %d shown, the rest counted once:\n%.2000s", kept, left, noticesPerRun, out)
			}
		}},
		{name: "a long notice is cut", act: func(c *conn, nc net.Conn, l sample.Layout) {
			_ = c.send(kindNotice, notice{Text: "long: " + words + "end-of-it"})
			sendSeconds(c, l, 0, 1, 2)
			_ = c.send(kindDone, done{Seconds: 3})
		}, want: []string{"agent 1: long: word word", "… (cut: 10.0 kB in all)"}, notWant: []string{"end-of-it", "was lost"}},
		{name: "a huge notice ends the agent", act: func(c *conn, nc net.Conn, l sample.Layout) {
			sendSeconds(c, l, 0)
			hdr := [5]byte{kindNotice}
			binary.BigEndian.PutUint32(hdr[1:], 250<<20)
			_, _ = nc.Write(append(hdr[:], `{"text":"BBBB`...)) // and never the rest: the coordinator must not wait for it
		}, lost: true, want: []string{"agent 1 (", "was lost at 0:01: sent a notice of 262.1 MB, more than the 25 KiB one may be"},
			notWant: []string{"fell silent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, out := runRogue(t, tc.act)
			if lost := res.Status == app.StatusPartial && res.ExitCode == app.ExitRunFailed; lost != tc.lost {
				t.Errorf("status %s, exit %d; want the agent lost: %v\n%.2000s", res.Status, res.ExitCode, tc.lost, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %q:\n%.3000s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("the output has %q:\n%.3000s", w, out)
				}
			}
			if tc.check != nil {
				tc.check(t, out)
			}
			if got := totalRequests(readRun(t, res.Dir)); tc.lost && got != 5 {
				t.Errorf("run.db has %d requests, want the 5 of second 0, sent before the agent went wrong", got)
			}
		})
	}
}

// TestAgentsBadSecondNumberEndsIt: a second past the test's length (a
// tampered 50,000,000 made a 3-second run write for over ten minutes),
// repeated or going back ends the agent as faulty, with its seconds so
// far kept, and the run ends as its load does.
func TestAgentsBadSecondNumberEndsIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		secs []int
		want string
		kept int64
	}{
		{"far past the end", []int{0, 50_000_000}, "was lost at 0:01: sent a bad second 50000000 (the test has 13: its load and graceful stops, and 10s of margin)", 5},
		{"just past the end", []int{0, 13}, "sent a bad second 13 (the test has 13", 5},
		{"repeated", []int{0, 1, 1}, "was lost at 0:02: sent a bad second 1 (second 2 was due)", 10},
		{"going back", []int{0, 1, 0}, "sent a bad second 0 (second 2 was due)", 10},
		{"skipping", []int{0, 2}, "sent a bad second 2 (second 1 was due)", 5},
		// sent as it starts: second 9 or so is 10 s ahead of the clock
		{"ahead of the clock", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "at 0:00, before it could have been measured", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, out := runRogue(t, func(c *conn, nc net.Conn, l sample.Layout) { sendSeconds(c, l, tc.secs...) })
			if res.Status != app.StatusPartial || res.ExitCode != app.ExitRunFailed {
				t.Errorf("status %s, exit %d; want partial, %d", res.Status, res.ExitCode, app.ExitRunFailed)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("the output lacks %q:\n%.3000s", tc.want, out)
			}
			// its only agent: the run does not go on "with the other agents" (second trial)
			if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "no agent is left, so the run ends") || strings.Contains(flat, "goes on with") {
				t.Errorf("the output does not say that no agent is left:\n%.3000s", out)
			}
			r := readRun(t, res.Dir)
			if got := totalRequests(r); got != tc.kept && tc.kept >= 0 {
				t.Errorf("run.db has %d requests, want the %d of the seconds before the bad one", got, tc.kept)
			}
			if n := len(r.Series); n > 13 {
				t.Errorf("run.db holds %d seconds of a 2-second test (%s)", n, time.Since(start).Round(time.Second))
			}
		})
	}
}

// TestAgentsEndWithoutItsSecondsIsALoss: an agent whose end claims
// seconds that did not arrive delivered less than it says: the run is a
// partial load and fails, as with a lost agent, not "completed, nothing
// to check" with exit 0.
func TestAgentsEndWithoutItsSecondsIsALoss(t *testing.T) {
	for _, tc := range []struct {
		name    string
		secs    []int
		claimed int
		want    string
	}{
		{"none sent", nil, 3, "was lost at 0:00: it said it sent 3 seconds, but 0 seconds arrived"},
		{"some sent", []int{0, 1}, 3, "was lost at 0:02: it said it sent 3 seconds, but 2 seconds arrived"},
		{"more sent than said", []int{0, 1, 2, 3}, 3, "was lost at 0:04: it said it sent 3 seconds, but 4 seconds arrived"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, out := runRogue(t, func(c *conn, nc net.Conn, l sample.Layout) {
				sendSeconds(c, l, tc.secs...)
				_ = c.send(kindDone, done{Seconds: tc.claimed})
			})
			if res.Status != app.StatusPartial || res.ExitCode != app.ExitRunFailed {
				t.Errorf("status %s, exit %d; want partial, %d", res.Status, res.ExitCode, app.ExitRunFailed)
			}
			for _, w := range []string{tc.want, "PARTIAL LOAD"} {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %q:\n%.3000s", w, out)
				}
			}
		})
	}
}
