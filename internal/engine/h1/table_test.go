package h1

import (
	"errors"
	"strings"
	"testing"
)

// exchangeCase sends one request per reply to rawServer, in order, and
// checks each answer and the connections the server saw.
type exchangeCase struct {
	name    string
	method  string // "" is GET
	replies []string
	want    []answer // one per request
	conns   int64    // connections the server accepted
}

// answer is what one Do must give.
type answer struct {
	status   int
	body     string
	received int    // bytes counted; 0: the whole reply as written (wireLen)
	err      error  // a sentinel the error must wrap; nil: success
	errHas   string // text the error message must contain
	noHeader string // a header the response must not carry
}

// wireLen is the length of a rawServer reply as the server writes it.
func wireLen(reply string) int {
	return len(strings.ReplaceAll(strings.TrimSuffix(reply, "<close>"), "|", ""))
}

// runExchanges runs each case over plain HTTP and over HTTPS. Received is
// checked over plain HTTP only: over HTTPS it counts TLS records (see
// TestTLSBytesAreWhatTheSocketCarried).
func runExchanges(t *testing.T, cases []exchangeCase) {
	t.Helper()
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				runExchange(t, sc, c)
			})
		}
	}
}

func runExchange(t *testing.T, sc scheme, c exchangeCase) {
	if len(c.want) != len(c.replies) {
		t.Fatalf("bad case: %d replies, %d answers", len(c.replies), len(c.want))
	}
	url, conns, reqs := rawServerOn(t, sc, c.replies...)
	cl := sc.newClient()
	defer cl.Close()
	method := c.method
	if method == "" {
		method = "GET"
	}
	for i, w := range c.want {
		resp, err := do(t, cl, method, url+"/x", true)
		if w.err != nil || err != nil {
			if !errors.Is(err, w.err) || w.err == nil {
				t.Fatalf("request %d: err = %v, want %v", i, err, w.err)
			}
			if !strings.Contains(err.Error(), w.errHas) {
				t.Fatalf("request %d: error %q does not say %q", i, err, w.errHas)
			}
			continue
		}
		if resp.Status != w.status || string(resp.Body) != w.body {
			t.Fatalf("request %d: got %d %q, want %d %q", i, resp.Status, resp.Body, w.status, w.body)
		}
		received := w.received
		if received == 0 {
			received = wireLen(c.replies[i])
		}
		if !sc.secure() && resp.Received != int64(received) {
			t.Errorf("request %d: received %d bytes, want %d", i, resp.Received, received)
		}
		// The parser's notes agree with a scan of the fields it kept.
		for name, noted := range map[string]bool{"Set-Cookie": resp.SetCookie, "Location": resp.Location} {
			if has := len(HeaderValues(resp.Header, name, nil)) > 0; has != noted {
				t.Errorf("request %d: %s noted %v, in the header %v: %q", i, name, noted, has, resp.Header)
			}
		}
		if w.noHeader != "" && len(HeaderValues(resp.Header, w.noHeader, nil)) > 0 {
			t.Errorf("request %d: header %s came from an interim response: %q", i, w.noHeader, resp.Header)
		}
	}
	cl.Close()
	if conns.Load() != c.conns {
		t.Errorf("%d connections, want %d", conns.Load(), c.conns)
	}
	// An independent count: the server answered exactly the requests sent.
	if reqs.Load() != int64(len(c.want)) {
		t.Errorf("server read %d requests, want %d", reqs.Load(), len(c.want))
	}
}
