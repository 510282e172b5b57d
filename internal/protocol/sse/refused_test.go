package sse

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestRefusedStreamSaysWhatTheTargetSaid: a subscription answered with an
// error status keeps what the target's body said after the status line,
// as an HTTP step's error does, reading at most a bounded prefix of the
// body, and no longer than the step's timeout when the body stalls.
func TestRefusedStreamSaysWhatTheTargetSaid(t *testing.T) {
	tests := []struct {
		name   string
		status int
		ctype  string
		body   string
		stall  bool // the server sends body, then neither more nor its end
		kind   sample.Kind
		want   string // the sample's whole error
	}{
		{"401 with a JSON body", http.StatusUnauthorized, "application/json", `{"message": "subscription needs a token", "status": 401}`, false,
			sample.HTTP4xx, "not an event stream: status 401 Unauthorized: subscription needs a token"},
		{"503 with text", http.StatusServiceUnavailable, "text/plain", "feed paused\tfor maintenance\n", false,
			sample.HTTP5xx, "not an event stream: status 503 Service Unavailable: feed paused for maintenance"},
		{"429 whose body stalls: what came before the timeout", http.StatusTooManyRequests, "text/plain", "slow down", true,
			sample.HTTP4xx, "not an event stream: status 429 Too Many Requests: slow down…"},
		{"500 without a body", http.StatusInternalServerError, "", "", false, sample.HTTP5xx, "not an event stream: status 500 Internal Server Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refusedStream(t, tt.status, tt.ctype, tt.body, tt.stall)
			if r.Kind != tt.kind || r.Err != tt.want || r.Status != tt.status {
				t.Errorf("kind %v, status %d, error %q; want %v, %d, %q", r.Kind, r.Status, r.Err, tt.kind, tt.status, tt.want)
			}
		})
	}
	t.Run("a 1 MiB page is cut to the bound", func(t *testing.T) {
		r := refusedStream(t, http.StatusBadGateway, "text/html", strings.Repeat("upstream down ", 80<<10), false)
		said, ok := strings.CutPrefix(r.Err, "not an event stream: status 502 Bad Gateway: upstream down")
		if !ok || len(said) > sample.MaxTargetMessage || !strings.HasSuffix(said, "…") {
			t.Errorf("error of %d bytes %q; want the status line, then at most %d bytes of the page ending in …", len(r.Err), r.Err, sample.MaxTargetMessage)
		}
	})
}

// refusedStream runs one session against a server that answers with
// status, a Content-Type and body (then stalls, with stall), and returns
// its sample. A stalled body is read until the step's timeout, 300ms.
func refusedStream(t *testing.T, status int, ctype, body string, stall bool) sample.Request {
	t.Helper()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
		if stall {
			w.(http.Flusher).Flush()
			select {
			case <-stop:
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	s := plan.Session{URL: tmpl.Literal(srv.URL), Timeout: 300 * time.Millisecond, MaxMessages: 1, MaxMessage: plan.DefaultMaxMessage}
	st, err := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	sess.Run(context.Background(), vu, time.Now())
	if len(vu.Samples) != 1 {
		t.Fatalf("%d samples, want 1", len(vu.Samples))
	}
	return vu.Samples[0]
}
