package h2

import (
	"errors"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// TestTimeoutKeepsConnection: a request whose answer does not come before
// its timeout fails as a timeout, its stream is reset and the connection
// kept, as net/http's transport (and grpc-go) keep it: the next request
// goes on the same connection, skipping the late answer of the first.
func TestTimeoutKeepsConnection(t *testing.T) {
	fs := startFault(t, func(s *session, id uint32) {
		if id == 1 {
			return // stalls until the client gives up
		}
		s.ok(1) // the first stream's late answer, before this one's
		s.ok(id)
	})
	c := New(Config{})
	defer c.Close()
	var timeoutErr interface{ Timeout() bool }
	for i, wantTimeout := range []bool{true, false, false} {
		var resp h1.Response
		err := c.Do(&h1.Request{Method: "GET", URL: []byte("http://" + fs.addr + "/"), Timeout: 200 * time.Millisecond, KeepBody: true}, &resp)
		if got := errors.As(err, &timeoutErr) && timeoutErr.Timeout(); got != wantTimeout || !wantTimeout && (err != nil || string(resp.Body) != "ok") {
			t.Fatalf("request %d: %v, body %q; want a timeout %v", i, err, resp.Body, wantTimeout)
		}
	}
	if n := fs.conns.Load(); n != 1 || len(c.conns) != 1 {
		t.Errorf("%d connections (the client keeps %d), want 1", n, len(c.conns))
	}
}
