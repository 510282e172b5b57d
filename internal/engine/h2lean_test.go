package engine

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestLeanHTTP2 runs http2: true scenarios through the lean HTTP/2 client
// and through net/http (Options.NetHTTP2) against the same servers: the
// samples must say the same (kinds, statuses, one handshake then reuse,
// bytes both ways), every request must reach the server once, and a
// server that does not choose h2 gets its requests through net/http.
func TestLeanHTTP2(t *testing.T) {
	var served, overH2 atomic.Int64
	release := make(chan struct{})
	defer close(release)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		if r.ProtoMajor == 2 {
			overH2.Add(1)
		}
		switch r.URL.Path {
		case "/stall":
			select { // until the test ends: the request's timeout ends it first
			case <-release:
			case <-r.Context().Done():
			}
		case "/missing":
			http.Error(w, "not here", http.StatusNotFound)
		default:
			fmt.Fprint(w, "ok")
		}
	})
	h2srv := httptest.NewUnstartedServer(handler)
	h2srv.EnableHTTP2 = true
	h2srv.StartTLS()
	defer h2srv.Close()
	h1srv := httptest.NewTLSServer(handler) // http/1.1 only
	defer h1srv.Close()
	cases := []struct {
		name   string
		url    string
		model  plan.Model
		want   sample.Kind
		status int
		h2     bool // the server saw HTTP/2
	}{
		{"GET", h2srv.URL + "/", plan.Iterations, sample.OK, 200, true},
		{"GET, a parking closed-model VU", h2srv.URL + "/", plan.VUs, sample.OK, 200, true},
		{"404", h2srv.URL + "/missing", plan.Iterations, sample.HTTP4xx, 404, true},
		{"stalled: the request's timeout", h2srv.URL + "/stall", plan.Iterations, sample.Timeout, 0, true},
		{"no h2 in ALPN: net/http's HTTP/1.1", h1srv.URL + "/", plan.Iterations, sample.OK, 200, false},
	}
	for _, c := range cases {
		for _, opts := range []Options{{}, {NetHTTP2: true}} {
			t.Run(fmt.Sprintf("%s/net=%v", c.name, opts.NetHTTP2), func(t *testing.T) {
				served.Store(0)
				overH2.Store(0)
				step := get(c.url)
				step.Request.Timeout = 300 * time.Millisecond
				load := plan.Load{Model: plan.Iterations, VUCount: 1, Count: 3, MaxDuration: time.Minute}
				if c.model == plan.VUs {
					load = plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: 300 * time.Millisecond, Target: 1}}}
				}
				s := scenario(load, step)
				s.HTTP2 = true
				rec := newTestRecorder()
				if err := New(&plan.Plan{Scenarios: []*plan.Scenario{s}, Insecure: true}, rec, opts).Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				if len(rec.reqs) < 3 {
					t.Fatalf("%d requests, want 3 or more", len(rec.reqs))
				}
				for i, q := range rec.reqs {
					if q.Kind != c.want || q.Status != c.status || q.Sent <= 0 || c.want == sample.OK && q.Received <= 0 {
						t.Fatalf("request %d: kind %v, status %d, sent %d, received %d (%s); want %v, %d", i, q.Kind, q.Status, q.Sent, q.Received, q.Err, c.want, c.status)
					}
				}
				if c.want == sample.OK && (rec.reqs[0].TLS <= 0 || rec.reqs[1].TLS != 0 || rec.reqs[1].Connecting != 0) {
					t.Errorf("TLS %v then %v, connect %v: want one handshake, then a reused connection", rec.reqs[0].TLS, rec.reqs[1].TLS, rec.reqs[1].Connecting)
				}
				if c.want != sample.Timeout && served.Load() != int64(len(rec.reqs)) { // a stalled request may still be on its way when the run ends
					t.Errorf("the server saw %d requests, the run recorded %d", served.Load(), len(rec.reqs))
				}
				if h2 := overH2.Load() == served.Load(); h2 != c.h2 {
					t.Errorf("%d of %d requests over HTTP/2, want all: %v", overH2.Load(), served.Load(), c.h2)
				}
			})
		}
	}
}
