package engine

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// partialBody answers each request with a 200 head promising 1,000 bytes
// and the first 10 of them, then does what end says: "hang" until the
// client gives up, "close" (FIN) or "reset" (RST). It returns the URL and
// the bytes each answer sends.
func partialBody(t *testing.T, end string) (string, int) {
	t.Helper()
	answer := "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + strings.Repeat("x", 10)
	url := headServer(t, 20*time.Second, func(c net.Conn, r *bufio.Reader) {
		c.Write([]byte(answer))
		switch end {
		case "hang":
			r.ReadByte() // until the client closes, or the deadline
		case "reset":
			c.(*net.TCPConn).SetLinger(0) // the close sends a reset
		}
	})
	return url, len(answer)
}

// TestBodyFailuresSayTheHeadArrived: a request that fails after the
// response head says it failed reading the body, how, and what arrived.
func TestBodyFailuresSayTheHeadArrived(t *testing.T) {
	// the request timeout of reset and close, which end before it; hang's
	// must outlast the head's arrival: 300 ms, or five times the longest
	// reset or close took on this host (under -race at load 20 a dial and
	// head took longer than 300 ms, which then timed out before the head)
	const longTimeout = 10 * time.Second
	var longest time.Duration
	for _, c := range []struct {
		end  string
		kind sample.Kind
		msg  string // %d: the bytes the server sent; %t: the request timeout
	}{
		{"reset", sample.ConnReset, "connection reset reading the body (%d B of the response, its head included)"},
		{"close", sample.ConnReset, "connection closed reading the body (%d B of the response, its head included)"},
		{"hang", sample.Timeout, "request timeout (%t) reading the body (%d B of the response, its head included)"},
	} {
		for _, cl := range clients() {
			t.Run(c.end+"/"+cl.name, func(t *testing.T) {
				url, n := partialBody(t, c.end)
				step := get(url)
				step.Request.Timeout = longTimeout
				if c.end == "hang" {
					step.Request.Timeout = max(300*time.Millisecond, (5 * longest).Round(100*time.Millisecond))
				}
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, step)
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
				want := strings.NewReplacer("%d", strconv.Itoa(n), "%t", step.Request.Timeout.String()).Replace(c.msg)
				if len(rec.reqs) != 2 {
					t.Fatalf("%d samples, want 2", len(rec.reqs))
				}
				for _, q := range rec.reqs {
					if q.Kind != c.kind || q.Err != want {
						t.Fatalf("kind %v %q, want %v %q", q.Kind, q.Err, c.kind, want)
					}
					longest = max(longest, q.Duration)
				}
			})
		}
	}
}
