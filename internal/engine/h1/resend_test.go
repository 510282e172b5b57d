package h1

import (
	"strings"
	"testing"
	"time"
)

// TestAResetAtAnIdleCloseIsSentAgain: a server that closes a kept-alive
// connection as the next request reaches it, the request still unread,
// resets it as a server that read it and reset does. The request is sent
// again (and counted once) only when the connection had been idle long
// enough for the server's idle close, as the client knows it from the
// connections it found closed (IdleCloses); otherwise it is counted and
// failed, and the server counts one less.
func TestAResetAtAnIdleCloseIsSentAgain(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	cases := []struct {
		name     string
		closes   time.Duration // the shortest idle close known of the server; 0: none
		reply    string        // the server's answer to the second request
		wantErr  bool
		wantReqs int64 // the requests the server read, of the 3 sent
		resent   int
	}{
		{"unread, no idle close known", 0, "<unread>", true, 2, 0},
		{"unread, idle closes after 1ns", time.Nanosecond, "<unread>", false, 3, 1},
		{"unread, idle closes after an hour", time.Hour, "<unread>", true, 2, 0},
		{"read and reset, no idle close known", 0, "<reset>", true, 3, 0},
		{"read and reset, idle closes after an hour", time.Hour, "<reset>", true, 3, 0},
	}
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				url, _, reqs, _ := rawServerClosing(t, sc, ok, c.reply, ok, ok)
				var closes IdleCloses
				if c.closes > 0 {
					closes.note(url[strings.Index(url, "//")+2:], c.closes)
				}
				cl := New(Config{Dialer: sc.newClient().cfg.Dialer, TLS: sc.client, HandshakeTimeout: 10 * time.Second, IdleCloses: &closes})
				defer cl.Close()
				var gotErr bool
				for range 3 {
					if _, err := do(t, cl, "GET", url, true); err != nil {
						gotErr = true
					}
				}
				if gotErr != c.wantErr || reqs.Load() != c.wantReqs || cl.resent != c.resent {
					t.Fatalf("error seen %v, the server read %d, %d sent again; want %v, %d, %d",
						gotErr, reqs.Load(), cl.resent, c.wantErr, c.wantReqs, c.resent)
				}
			})
		}
	}
}
