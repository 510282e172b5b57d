package h1

import "testing"

// TestStrayBytesCloseTheConnection: bytes after a complete response are
// never read as the next request's response; the connection is dropped and
// the next request gets its own answer on a new one.
func TestStrayBytesCloseTheConnection(t *testing.T) {
	const (
		ok    = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
		stray = "HTTP/1.1 500 Stray\r\nContent-Length: 5\r\n\r\nstray"
	)
	okAnswer := answer{status: 200, body: "ok"}
	runExchanges(t, []exchangeCase{
		{
			name:    "body longer than its Content-Length",
			replies: []string{ok + "EXTRA", ok},
			want:    []answer{{status: 200, body: "ok", received: len(ok)}, okAnswer},
			conns:   2,
		},
		{
			name:    "a second, unsolicited response",
			replies: []string{ok + stray, ok},
			want:    []answer{{status: 200, body: "ok", received: len(ok)}, okAnswer},
			conns:   2,
		},
		{
			name:    "stray bytes after a chunked body",
			replies: []string{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n" + stray, ok},
			want:    []answer{{status: 200, body: "ok", received: len("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")}, okAnswer},
			conns:   2,
		},
		{
			name:    "stray bytes after a HEAD response",
			method:  "HEAD",
			replies: []string{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"},
			want:    []answer{{status: 200, received: len("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n")}, {status: 200}},
			conns:   2,
		},
	})
}
