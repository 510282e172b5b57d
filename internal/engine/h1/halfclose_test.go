package h1

import (
	"errors"
	"net"
	"testing"
	"time"
)

// TestHalfCloseInTheFreshWindow: a server that half-closes each connection
// right after its response (no "Connection: close") and goes on reading
// sends nothing a waiting request could see: the first request that
// skipped the idle check waits for its deadline and fails (the server read
// it, and could not answer). The client then checks every reuse, so no
// later request waits. (A checked reuse can still meet the close just
// after its check: the server read it, so it fails at once, counted, and
// is not sent again.) The server reads each request exactly once.
func TestHalfCloseInTheFreshWindow(t *testing.T) {
	url, _, reqs := closingServer(t, func(c *net.TCPConn) bool { c.CloseWrite(); return true })
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	const n = 6
	var resp Response
	timeouts := 0
	for i := range n {
		start := time.Now()
		deadline := start.Add(300 * time.Millisecond)
		if i > 0 {
			start = resp.Done // as if sent at once, whatever the scheduler did
		}
		err := cl.Do(&Request{Method: "GET", URL: []byte(url), KeepBody: true, Start: start, Deadline: deadline}, &resp)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			timeouts++
		}
	}
	if timeouts != 1 || !cl.checkAlways {
		t.Errorf("%d requests timed out, want 1 (the first reuse; then every reuse is checked)", timeouts)
	}
	if reqs.Load() != n {
		t.Errorf("the server read %d requests, want the %d sent", reqs.Load(), n)
	}
}
