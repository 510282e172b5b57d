package h1

import (
	"errors"
	"net"
	"testing"
	"time"
)

// TestHalfCloseInTheFreshWindow: a server that half-closes each connection
// right after its response (no "Connection: close") and goes on reading
// sends nothing a waiting request could see once its close is in: the
// first request that skipped the idle check fails, at its deadline (or at
// once, when the close came after it was sent). The client then checks
// every reuse, so no later request waits for its deadline. (A checked
// reuse can still meet the close just after its check: the server read it,
// so it fails at once, counted, and is not sent again.) The server reads
// each request exactly once.
func TestHalfCloseInTheFreshWindow(t *testing.T) {
	url, _, reqs := closingServer(t, func(c *net.TCPConn) bool { c.CloseWrite(); return true })
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	const n = 6
	var resp Response
	for i := range n {
		err := doRightAfter(cl, url, i, 300*time.Millisecond, &resp)
		var ne net.Error
		timedOut := errors.As(err, &ne) && ne.Timeout()
		switch {
		case i == 1 && err == nil:
			t.Fatal("the first reuse, on a half-closed connection, succeeded")
		case i > 1 && timedOut:
			t.Fatalf("request %d waited for its deadline: the client did not check the reuse", i)
		}
	}
	if !cl.checkAlways {
		t.Error("the client does not check every reuse after the failure")
	}
	if reqs.Load() != n {
		t.Errorf("the server read %d requests, want the %d sent", reqs.Load(), n)
	}
}
