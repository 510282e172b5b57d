package h1

import (
	"strings"
	"testing"
)

// TestRequestSizeHoldsTheRequest: the write buffer made once for a
// client's first request holds it whole, so no append grows it.
func TestRequestSizeHoldsTheRequest(t *testing.T) {
	long := strings.Repeat("x", 3000)
	tests := []struct {
		name string
		req  Request
	}{
		{"GET", Request{Method: "GET", URL: []byte("http://127.0.0.1:8080/")}},
		{"query only", Request{Method: "GET", URL: []byte("http://h?q=1")}},
		{"POST, empty body", Request{Method: "POST", URL: []byte("http://h/p")}},
		{"overrides and fields", Request{Method: "PATCH", URL: []byte("http://h/" + long), Host: []byte("other.example"),
			UserAgent: []byte("a-much-longer-agent-than-the-default/1.0"), Header: []byte("X-A: " + long + "\r\n"), Body: []byte(long)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, host, target, _, ok := splitURL(tt.req.URL)
			if !ok {
				t.Fatalf("bad URL %q", tt.req.URL)
			}
			size := requestSize(&tt.req, host, target)
			if n := len(appendRequest(nil, &tt.req, host, target)); n > size {
				t.Errorf("the request takes %d bytes, requestSize says %d", n, size)
			}
		})
	}
}
