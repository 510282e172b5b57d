package ws

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// server behaviours, each a WebSocket handler.
func echo(c *websocket.Conn, r *http.Request) {
	for {
		typ, b, err := c.Read(r.Context())
		if err != nil {
			return
		}
		if c.Write(r.Context(), typ, b) != nil {
			return
		}
	}
}

func chat(c *websocket.Conn, r *http.Request) {
	if c.Write(r.Context(), websocket.MessageText, []byte(`{"type": "welcome"}`)) != nil {
		return
	}
	echo(c, r)
}

func silent(c *websocket.Conn, r *http.Request) {
	_, _, _ = c.Read(r.Context()) // holds the connection open, says nothing
}

func goingAway(c *websocket.Conn, r *http.Request) {
	_ = c.Write(r.Context(), websocket.MessageText, []byte("bye"))
	_ = c.Close(websocket.StatusGoingAway, "restart")
}

func huge(c *websocket.Conn, r *http.Request) {
	_ = c.Write(r.Context(), websocket.MessageText, []byte(strings.Repeat("x", 1<<20)))
	silent(c, r)
}

func serve(t *testing.T, h func(*websocket.Conn, *http.Request)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") == "refuse" {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"chat.v1"}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(4 << 20)
		h(c, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func text(s string) plan.Send {
	return plan.Send{Text: tmpl.Literal(s)}
}

func TestSession(t *testing.T) {
	gotWelcome := &plan.Check{From: plan.FromJSON, Path: jsonpath.MustParse("$.type"), Op: plan.OpEq, Values: []string{"welcome"}}
	gotPong := &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{"pong"}}
	is101 := plan.Check{ID: 0, From: plan.FromStatus, Op: plan.OpIn, Values: []string{"101"}}
	isJSON := plan.Check{ID: 1, From: plan.FromJSON, Path: jsonpath.MustParse("$.type"), Op: plan.OpExists}
	proto := plan.Check{ID: 2, From: plan.FromHeader, Header: "Sec-Websocket-Protocol", Op: plan.OpEq, Values: []string{"chat.v1"}}
	tests := []struct {
		name     string
		handler  func(*websocket.Conn, *http.Request)
		s        plan.Session
		token    string
		kind     sample.Kind
		errHas   string
		sent     int64 // -1: at least 2
		received int64 // -1: at least 2
		reply    bool
		code     int // the close code the session ended with; 0: none (no close handshake)
		checks   map[int32][2]int
	}{
		{"send, wait for the matching reply", echo,
			plan.Session{Timeout: 5 * time.Second, Send: []plan.Send{text("pong?")}, Until: gotPong, Checks: []plan.Check{is101}},
			"", sample.OK, "", 1, 1, true, 1000, map[int32][2]int{0: {1, 0}}},
		{"a welcome, then messages on a schedule until the duration", chat,
			plan.Session{Timeout: 5 * time.Second, Duration: 300 * time.Millisecond, Subprotocols: []string{"chat.v1"},
				Send: []plan.Send{{Text: tmpl.Literal(`{"type": "ping"}`), Every: 20 * time.Millisecond}}, Checks: []plan.Check{isJSON, proto}},
			"", sample.OK, "", -1, -1, false, 1000, nil},
		{"until: a message already there", chat,
			plan.Session{Timeout: 5 * time.Second, Until: gotWelcome},
			"", sample.OK, "", 0, 1, true, 1000, nil},
		{"max_messages", chat,
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 2, Send: []plan.Send{text("a")}},
			"", sample.OK, "", 1, 2, false, 1000, nil},
		{"a silent server stalls: timeout", silent,
			plan.Session{Timeout: 200 * time.Millisecond, Until: gotPong},
			"", sample.Timeout, "no message within the timeout (200ms) after 0 messages", 0, 0, false, 0, nil},
		{"until: never matched within the duration", echo,
			plan.Session{Timeout: 5 * time.Second, Duration: 200 * time.Millisecond, Send: []plan.Send{text("ping")}, Until: gotPong},
			"", sample.Timeout, "no message matched the until check within the duration (200ms)", 1, 1, false, 1000, nil},
		{"the server closes early", goingAway,
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 5},
			"", sample.ConnReset, "the server closed the session (1001) after 1 message", 0, 1, false, 1001, nil},
		{"handshake refused", echo,
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 1, Checks: []plan.Check{is101}},
			"refuse", sample.HTTP4xx, "status 403 Forbidden", 0, 0, false, 0, map[int32][2]int{0: {0, 1}}},
		{"a message past max_message_size fails, memory bounded", huge,
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 1, MaxMessage: 1024},
			"", sample.Other, "a message longer than max_message_size (1 KiB)", 0, 0, false, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			s.URL = tmpl.Literal(serve(t, tt.handler))
			if s.MaxMessage == 0 {
				s.MaxMessage = plan.DefaultMaxMessage
			}
			if tt.token != "" {
				s.Headers = []plan.Header{{Name: "X-Token", Value: tmpl.Literal(tt.token)}}
			}
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
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) {
				t.Errorf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			if tt.sent >= 0 && f.MsgsSent != tt.sent || tt.sent < 0 && f.MsgsSent < 2 {
				t.Errorf("sent %d, want %d", f.MsgsSent, tt.sent)
			}
			if tt.received >= 0 && f.MsgsReceived != tt.received || tt.received < 0 && f.MsgsReceived < 2 {
				t.Errorf("received %d, want %d", f.MsgsReceived, tt.received)
			}
			if (f.Reply > 0) != tt.reply || f.Reply > r.Duration {
				t.Errorf("reply time %v (session %v), want one: %v", f.Reply, r.Duration, tt.reply)
			}
			if f.Code != tt.code {
				t.Errorf("close code %d, want %d", f.Code, tt.code)
			}
			if s.Duration > 0 && r.Kind == sample.OK && f.Session < s.Duration {
				t.Errorf("session %v shorter than its duration %v", f.Session, s.Duration)
			}
			for id, want := range tt.checks {
				if vu.Checks[id] != want {
					t.Errorf("check %d: %v passes/fails, want %v", id, vu.Checks[id], want)
				}
			}
			if tt.checks == nil {
				for id, pf := range vu.Checks {
					if pf[1] != 0 {
						t.Errorf("check %d failed %d times", id, pf[1])
					}
				}
			}
		})
	}
}
