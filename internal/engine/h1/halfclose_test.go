package h1

import (
	"net"
	"testing"
	"time"
)

// TestHalfCloseInTheFreshWindow: a server that half-closes each connection
// right after its response (no "Connection: close") and goes on reading
// sends nothing a waiting request could see: the first request that
// skipped the idle check waits for its deadline and fails (the server read
// it, and could not answer). The client then checks every reuse, so no
// later request fails. (A checked reuse can still meet the close just
// after its check, get an EOF and go out again on a new connection, as
// net/http does: the server may read a GET twice, before and after.)
func TestHalfCloseInTheFreshWindow(t *testing.T) {
	url, conns, reqs := closingServer(t, func(c *net.TCPConn) bool { c.CloseWrite(); return true })
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	const n = 6
	var resp Response
	failed := 0
	for i := range n {
		start := time.Now()
		deadline := start.Add(300 * time.Millisecond)
		if i > 0 {
			start = resp.Done // as if sent at once, whatever the scheduler did
		}
		if err := cl.Do(&Request{Method: "GET", URL: []byte(url), KeepBody: true, Start: start, Deadline: deadline}, &resp); err != nil {
			failed++
		}
	}
	if failed != 1 || !cl.checkAlways {
		t.Errorf("%d requests failed, want 1 (the first reuse, then every reuse is checked)", failed)
	}
	if reqs.Load() < n {
		t.Errorf("the server read %d requests, want at least the %d sent", reqs.Load(), n)
	}
	t.Logf("the server saw %d connections and %d requests", conns.Load(), reqs.Load())
}
