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

// TestDurationEndsWhateverTheServer: an sse: session with a duration ends
// at it however the server behaves: a flood of 64 KiB writes (no flush
// between events, so each read is a buffer full of them) or a few events
// then silence, with the events read before it counted. WebSocket's flood
// held a session until the run's end (s35 trial, defect 2); the SSE
// session's duration is its request's deadline, which this pins.
func TestDurationEndsWhateverTheServer(t *testing.T) {
	const (
		duration = 200 * time.Millisecond
		timeout  = 4 * time.Second // a stall is not what ends the session
		stop     = 8 * time.Second // nor the run's graceful stop
	)
	block := []byte(strings.Repeat("data: {\"type\":\"flood\"}\n\n", 64<<10/24))
	tests := []struct {
		name     string
		handler  http.HandlerFunc
		received int64 // -1: at least 1
	}{
		{"a flood", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for range 1 << 20 { // bounded: 64 GiB, far past any duration here
				if _, err := w.Write(block); err != nil {
					return
				}
			}
		}, -1},
		{"three events, then silent", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, e := range events(3) {
				_, _ = w.Write([]byte(e))
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			s := plan.Session{URL: tmpl.Literal(srv.URL), Duration: duration, Timeout: timeout, MaxMessage: plan.DefaultMaxMessage}
			st, err := Protocol{}.Prepare(&s, prototest.Env(timeout))
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			defer sess.Close()
			ctx, cancel := context.WithTimeout(context.Background(), stop)
			defer cancel()
			vu := prototest.NewVU()
			sess.Run(ctx, vu, time.Now())
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != sample.OK {
				t.Errorf("kind %v (%q), want ok", r.Kind, r.Err)
			}
			if limit := duration + (timeout-duration)/2; f.Session < duration || f.Session > limit {
				t.Errorf("session %v, want from its duration %v to %v", f.Session, duration, limit)
			}
			if tt.received >= 0 && f.MsgsReceived != tt.received || tt.received < 0 && f.MsgsReceived < 1 {
				t.Errorf("received %d events, want %d", f.MsgsReceived, tt.received)
			}
		})
	}
}
