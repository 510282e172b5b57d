package ws

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

// TestRefusedHandshakeSaysWhatTheTargetSaid: an upgrade answered with an
// error status keeps what the target's body said after the status line,
// as an HTTP step's error does (a JSON error field, else the text; at most
// sample.MaxTargetMessage bytes, control characters escaped), so that a
// 401's "token expired" is not lost behind "handshake refused".
func TestRefusedHandshakeSaysWhatTheTargetSaid(t *testing.T) {
	tests := []struct {
		name   string
		status int
		ctype  string
		body   string
		kind   sample.Kind
		want   string // the sample's whole error
	}{
		{"401 with a JSON body", http.StatusUnauthorized, "application/json", `{"error": "token expired", "code": 17}`,
			sample.HTTP4xx, "handshake refused: status 401 Unauthorized: token expired"},
		{"503 with text", http.StatusServiceUnavailable, "text/plain", "draining for a deploy\n\x1b[31mretry in 30s\n",
			sample.HTTP5xx, `handshake refused: status 503 Service Unavailable: draining for a deploy \x1b[31mretry in 30s`},
		{"403 without a body", http.StatusForbidden, "", "", sample.HTTP4xx, "handshake refused: status 403 Forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refusedSession(t, tt.status, tt.ctype, tt.body)
			if r.Kind != tt.kind || r.Err != tt.want || r.Status != tt.status {
				t.Errorf("kind %v, status %d, error %q; want %v, %d, %q", r.Kind, r.Status, r.Err, tt.kind, tt.status, tt.want)
			}
		})
	}
	t.Run("a 1 MiB page is cut to the bound", func(t *testing.T) {
		r := refusedSession(t, http.StatusBadGateway, "text/html", strings.Repeat("upstream down ", 80<<10))
		said, ok := strings.CutPrefix(r.Err, "handshake refused: status 502 Bad Gateway: upstream down")
		if !ok || len(said) > sample.MaxTargetMessage || !strings.HasSuffix(said, "…") {
			t.Errorf("error of %d bytes %q; want the status line, then at most %d bytes of the page ending in …", len(r.Err), r.Err, sample.MaxTargetMessage)
		}
	})
}

// refusedSession runs one session against a server that refuses every
// upgrade with status, a Content-Type and body, and returns its sample.
func refusedSession(t *testing.T, status int, ctype, body string) sample.Request {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	s := plan.Session{URL: tmpl.Literal(srv.URL), Timeout: 5 * time.Second, MaxMessages: 1, MaxMessage: plan.DefaultMaxMessage}
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
