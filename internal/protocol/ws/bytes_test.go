package ws

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestSessionBytesOnTheWire: a session's sent and received bytes are what
// the server read and wrote (handshake, frames with their headers and
// masks, the close handshake), as HTTP counts a request's; WebSocket's sent
// bytes were 0 ("116.9 kB received · 0 B sent" for 7,307 sessions).
func TestSessionBytesOnTheWire(t *testing.T) {
	payload := strings.Repeat("p", 1000)
	for _, tt := range []struct {
		name string
		send []plan.Send
		max  int
	}{
		{"three messages echoed", []plan.Send{text(payload), text(payload), text(payload)}, 3},
		{"one small message", []plan.Send{text("hi")}, 1},
		{"nothing sent, one message received", nil, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(done)
				c, err := websocket.Accept(w, r, nil)
				if err != nil {
					return
				}
				defer c.CloseNow()
				if len(tt.send) == 0 {
					_ = c.Write(r.Context(), websocket.MessageText, []byte("hello"))
				}
				echo(c, r) // until the client's close
			}))
			var counts *prototest.Counts
			srv.Listener, counts = prototest.CountBytes(srv.Listener)
			srv.Start()
			defer srv.Close()
			s := plan.Session{URL: tmpl.Literal(srv.URL), Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage, MaxMessages: tt.max, Send: tt.send}
			st, err := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			select {
			case <-done: // the server has read the close frame: all the client wrote
			case <-time.After(5 * time.Second):
				t.Fatal("the server's handler did not end")
			}
			r := vu.Samples[0]
			if r.Kind != sample.OK {
				t.Fatalf("session failed: %v %s", r.Kind, r.Err)
			}
			var payloads int64
			for _, m := range tt.send {
				payloads += int64(len(m.Text.Render(nil, &vu.TC)))
			}
			if r.Sent != counts.Read.Load() || r.Sent <= payloads {
				t.Errorf("sent %d B, the server read %d B (payloads %d B)", r.Sent, counts.Read.Load(), payloads)
			}
			if r.Received != counts.Written.Load() {
				t.Errorf("received %d B, the server wrote %d B", r.Received, counts.Written.Load())
			}
		})
	}
}
