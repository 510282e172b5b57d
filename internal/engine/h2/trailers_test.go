package h2

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// TestTrailersAndNoLength: a response's trailers are kept, a header block
// that ends the stream is told (gRPC's Trailers-Only), NoContentLength
// sends a body without content-length, and a grpc-timeout that changes at
// every request does not keep the header block from being sent again.
func TestTrailersAndNoLength(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "Grpc-Status")
		fmt.Fprintf(w, "%d %v", r.ContentLength, r.Header.Get("Grpc-Timeout") != "")
		w.Header().Set("Grpc-Status", "5")
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Grpc-Status", "7") })
	srv := httptest.NewUnstartedServer(mux)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	c := New(Config{TLS: srv.Client().Transport.(*http.Transport).TLSClientConfig, NoContentLength: true})
	defer c.Close()
	cases := []struct {
		path, body, trl string
		seen, only      bool
		hdrHas          string
	}{
		{"/", "-1 true", "grpc-status: 5\r\n", true, false, ""},
		{"/", "-1 true", "grpc-status: 5\r\n", true, false, ""},
		{"/", "-1 true", "grpc-status: 5\r\n", true, false, ""},
		{"/empty", "", "", false, true, "grpc-status: 7\r\n"},
	}
	for i, tc := range cases {
		hdr := fmt.Sprintf("content-type: application/grpc\r\ngrpc-timeout: %dn\r\n", 1000+i)
		req := &h1.Request{Method: "POST", URL: []byte(srv.URL + tc.path), Header: []byte(hdr), Body: []byte("abc"), KeepBody: true, Timeout: 5 * time.Second}
		var resp h1.Response
		if err := c.Do(req, &resp); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		trl, seen, only := c.Trailers()
		if string(resp.Body) != tc.body || string(trl) != tc.trl || seen != tc.seen || only != tc.only {
			t.Errorf("%d %s: body %q, trailers %q (%v, headers only %v); want %q, %q (%v, %v)", i, tc.path, resp.Body, trl, seen, only, tc.body, tc.trl, tc.seen, tc.only)
		}
		if tc.hdrHas != "" && !contains(resp.Header, tc.hdrHas) {
			t.Errorf("%d: header %q, want it to hold %q", i, resp.Header, tc.hdrHas)
		}
	}
	if c.sameBlocks < 1 { // the first request adds its fields to the table, the second is all indexed, the third sends it again
		t.Errorf("%d header blocks sent again, want 1 (grpc-timeout is not indexed)", c.sameBlocks)
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }
