package ws

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestAgainstGoHTTPBin runs sessions against go-httpbin's /websocket/echo,
// a WebSocket server nobody here wrote (its own RFC 6455 implementation).
func TestAgainstGoHTTPBin(t *testing.T) {
	srv := httptest.NewServer(httpbin.New())
	defer srv.Close()
	echoed := &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{"vu-7"}}
	tests := []struct {
		name     string
		path     string
		s        plan.Session
		kind     sample.Kind
		errHas   string
		sent     int64
		received int64
	}{
		{"send, await the echo", "/websocket/echo", plan.Session{Timeout: 5 * time.Second, Until: echoed,
			Send: []plan.Send{{Text: tmpl.Literal("hello from vu-7")}}}, sample.OK, "", 1, 1},
		{"two messages, max_messages", "/websocket/echo", plan.Session{Timeout: 5 * time.Second, MaxMessages: 2,
			Send: []plan.Send{{Text: tmpl.Literal("a")}, {Text: tmpl.Literal("b")}}}, sample.OK, "", 2, 2},
		{"a handshake refused", "/websocket/echo?max_message_size=8", plan.Session{Timeout: 5 * time.Second, MaxMessages: 1},
			sample.HTTP4xx, "handshake refused: status 400 Bad Request", 0, 0},
		{"the server refuses a message past its limit", "/websocket/echo?max_fragment_size=8&max_message_size=8", plan.Session{Timeout: 5 * time.Second, MaxMessages: 1,
			Send: []plan.Send{{Text: tmpl.Literal("longer than eight bytes")}}}, sample.ConnReset, "the server closed the session (1009)", 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			s.URL, s.MaxMessage = tmpl.Literal(srv.URL+tt.path), plan.DefaultMaxMessage
			st, _ := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) || f.MsgsSent != tt.sent || f.MsgsReceived != tt.received {
				t.Errorf("kind %v (%q), sent %d, received %d; want %v containing %q, %d, %d",
					r.Kind, r.Err, f.MsgsSent, f.MsgsReceived, tt.kind, tt.errHas, tt.sent, tt.received)
			}
		})
	}
}
