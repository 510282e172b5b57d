package engine

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestCutBodyKeepsItsStatus: a response whose status line and headers
// arrived, but whose body the end of the run cut off, is its status's
// failure, saying its body was cut, and lasts until its first byte; a 500
// with a 1 GB body read "interrupted: the run was stopped" and its 500 was
// lost (second trial). A 200 cut so stays interrupted: it did not fail.
func TestCutBodyKeepsItsStatus(t *testing.T) {
	const hikari = `{"message":"HikariPool-1 - Connection is not available, request timed out after 30000ms"}`
	padding := []byte(strings.Repeat(" ", 1<<20)) // JSON's own white space
	cases := []struct {
		status int
		kind   sample.Kind
		want   []string // in the sample's message
	}{
		{500, sample.HTTP5xx, []string{"500", "HikariPool-1 - Connection is not available", "(its body was cut off by the end of the run)"}},
		{200, sample.Interrupted, []string{"interrupted: the run was stopped"}},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(http.StatusText(c.status)+"/"+cl.name, func(t *testing.T) {
				var heads atomic.Int64
				release := make(chan struct{})
				srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					w.Header().Set("Content-Length", "1000000000") // a 1 GB body, of which the start
					w.WriteHeader(c.status)
					_, _ = w.Write([]byte(hikari))
					// More than both sockets' buffers hold: once written, the client has
					// read the head and is reading the body. A flush alone left the head
					// unread in the client's socket as the run was cut (4 of 60 on a busy host).
					_, _ = w.Write(padding)
					w.(http.Flusher).Flush()
					heads.Add(1)
					select { // the rest never comes
					case <-r.Context().Done():
					case <-release:
					case <-time.After(30 * time.Second):
					}
				}))
				srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
					_ = c.(*net.TCPConn).SetWriteBuffer(16 << 10)
					return ctx
				}
				srv.Start()
				defer srv.Close()
				defer close(release)
				s := scenario(plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: time.Minute, Target: 1}}}, get(srv.URL+"/x"))
				s.Flow[0].Request.Timeout = time.Minute
				rec := newTestRecorder()
				e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, cl.opts)
				smallReceiveBuffers(e.dialer)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				start := time.Now()
				go func() { done <- e.Run(ctx) }()
				if !waitFor(func() bool { return heads.Load() == 1 && e.scens[0].inflight.Load() == 1 }) {
					cancel()
					t.Fatal("the response's head never arrived")
				}
				cut := time.Since(start)
				cancel()
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					t.Fatal("Run did not return after the cancel")
				}
				if len(rec.reqs) != 1 {
					t.Fatalf("%d samples, want 1", len(rec.reqs))
				}
				q := rec.reqs[0]
				if q.Kind != c.kind || (c.kind == sample.HTTP5xx && q.Status != c.status) {
					t.Fatalf("sample %+v: want kind %v, status %d", q, c.kind, c.status)
				}
				for _, w := range c.want {
					if !strings.Contains(q.Err, w) {
						t.Errorf("message %q lacks %q", q.Err, w)
					}
				}
				if q.Duration <= 0 || q.Duration > cut+time.Second {
					t.Errorf("duration %v, want within the %v until the cut", q.Duration, cut)
				}
			})
		}
	}
}
