package ws

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// flood sends as fast as it can and never reads, so it never answers a
// close frame (the s35 trial's /wsflood).
func flood(c *websocket.Conn, r *http.Request) {
	msg := []byte(`{"type":"flood"}`)
	for {
		if c.Write(r.Context(), websocket.MessageText, msg) != nil {
			return
		}
	}
}

// fiveThenMute sends five messages, then holds the connection open
// without reading: no close frame is ever answered (the trial's /wssilent,
// after five messages).
func fiveThenMute(c *websocket.Conn, r *http.Request) {
	for range 5 {
		if c.Write(r.Context(), websocket.MessageText, []byte(`{"type":"tick"}`)) != nil {
			return
		}
	}
	<-r.Context().Done()
}

// TestDurationEndsWhateverThePeer: a session with a duration ends at it
// plus the close wait, however the server behaves, counting the messages
// read before the duration's end. Without the cut at the close wait, the
// flood held the session until the run's end (the trial: 59.5 s for
// duration: 1s) and a server that never answers the close held it until
// its stall timeout counted from the session's start.
func TestDurationEndsWhateverThePeer(t *testing.T) {
	const (
		duration = 200 * time.Millisecond
		timeout  = 4 * time.Second // well above the close wait (1 s), so that a stall is not what ends the session
		stop     = 8 * time.Second // the run's graceful stop, which must not be what ends it
	)
	big := strings.Repeat("x", 64<<10)
	gotPong := &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{"pong"}}
	tests := []struct {
		name     string
		handler  func(*websocket.Conn, *http.Request)
		s        plan.Session
		kind     sample.Kind
		errHas   string
		sent     int64 // -1: at least 1
		received int64 // -1: at least 1
	}{
		{"a flood that never reads", flood,
			plan.Session{}, sample.OK, "", 0, -1},
		{"a flood, while the VU sends what it never reads", flood,
			plan.Session{Send: []plan.Send{{Text: tmpl.Literal(big), Every: time.Millisecond}}}, sample.OK, "", -1, -1},
		{"a flood never matching until:", flood,
			plan.Session{Until: gotPong}, sample.Timeout, "no message matched the until check within the duration (200ms)", 0, -1},
		{"five messages, then mute: never answers the close", fiveThenMute,
			plan.Session{Send: []plan.Send{{Text: tmpl.Literal("hello")}}}, sample.OK, "", 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := tt.s
			s.URL, s.Duration, s.Timeout, s.MaxMessage = tmpl.Literal(serve(t, tt.handler)), duration, timeout, plan.DefaultMaxMessage
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
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) {
				t.Errorf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			// judged against the stall timeout and the graceful stop, not a
			// speed: duration + close wait is 1.2 s, the timeout 4 s
			if limit := duration + (timeout-duration)/2; f.Session < duration || f.Session > limit {
				t.Errorf("session %v, want from its duration %v to %v (the duration and the close wait, %v, with room)", f.Session, duration, limit, closeWait(timeout))
			}
			if tt.sent >= 0 && f.MsgsSent != tt.sent || tt.sent < 0 && f.MsgsSent < 1 {
				t.Errorf("sent %d, want %d", f.MsgsSent, tt.sent)
			}
			if tt.received >= 0 && f.MsgsReceived != tt.received || tt.received < 0 && f.MsgsReceived < 1 {
				t.Errorf("received %d, want %d", f.MsgsReceived, tt.received)
			}
			if f.Code != int(websocket.StatusNormalClosure) {
				t.Errorf("close code %d, want 1000 (ours)", f.Code)
			}
		})
	}
}
