package ws

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// received is what a test server read: each message's type and bytes.
type received struct {
	mu   sync.Mutex
	msgs []string // "text:…" or "binary:<hex>"
}

func (r *received) add(typ websocket.MessageType, b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if typ == websocket.MessageBinary {
		r.msgs = append(r.msgs, fmt.Sprintf("binary:%x", b))
		return
	}
	r.msgs = append(r.msgs, "text:"+string(b))
}

func (r *received) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// pinger sends pings with ids 1 to 3 (JSON text), each waiting for its
// answer, then a binary 0xca 0xfe and its answer, then "done".
func pinger(got *received) func(*websocket.Conn, *http.Request) {
	return func(c *websocket.Conn, r *http.Request) {
		ask := func(typ websocket.MessageType, msg []byte) bool {
			if c.Write(r.Context(), typ, msg) != nil {
				return false
			}
			t, b, err := c.Read(r.Context())
			if err != nil {
				return false
			}
			got.add(t, b)
			return true
		}
		for id := 1; id <= 3; id++ {
			if !ask(websocket.MessageText, fmt.Appendf(nil, `{"type": "ping", "id": "p%d"}`, id)) {
				return
			}
		}
		if ask(websocket.MessageBinary, []byte{0xca, 0xfe}) {
			_ = c.Write(r.Context(), websocket.MessageText, []byte("done"))
		}
		silent(c, r)
	}
}

// binaryEcho records what it reads and echoes it with its type.
func binaryEcho(got *received) func(*websocket.Conn, *http.Request) {
	return func(c *websocket.Conn, r *http.Request) {
		for {
			typ, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			got.add(typ, b)
			if c.Write(r.Context(), typ, b) != nil {
				return
			}
		}
	}
}

func hexMsg(src string, enc plan.Encoding, t *testing.T) plan.Send {
	t.Helper()
	tp, err := tmpl.Compile(src, &tmpl.Scope{Vars: map[string]int{"x": 0}})
	if err != nil {
		t.Fatal(err)
	}
	return plan.Send{Text: tp, Binary: true, Encoding: enc}
}

// TestBinaryAndReplies: binary messages go out as binary frames with the
// bytes written (decoded while parsing, or from a template at send time),
// binary replies are checked by their bytes and size, and reply: answers
// each message matching its on: with values extracted from it.
func TestBinaryAndReplies(t *testing.T) {
	done := &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{"done"}}
	hasCafe := &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{"\xca\xfe"}}
	isPing := plan.Check{From: plan.FromJSON, Path: jsonpath.MustParse("$.type"), Op: plan.OpEq, Values: []string{"ping"}}
	size2 := plan.Check{From: plan.FromSize, Op: plan.OpEq, Values: []string{"2"}}
	size4 := plan.Check{ID: 0, From: plan.FromSize, Op: plan.OpEq, Values: []string{"4"}}
	pong, _ := tmpl.Compile(`{"type": "pong", "id": "{{ id }}"}`, &tmpl.Scope{Vars: map[string]int{"id": 1}})
	replies := []plan.Reply{
		{On: isPing, Extract: []plan.Extract{{Var: 1, Name: "id", From: plan.FromJSON, Path: jsonpath.MustParse("$.id"), Check: 1}}, Send: plan.Send{Text: pong}},
		{On: size2, Send: plan.Send{Text: tmpl.Literal("\xbe\xef"), Binary: true}},
	}
	tests := []struct {
		name    string
		handler func(*received) func(*websocket.Conn, *http.Request)
		s       plan.Session
		x       string // the VU's variable x
		kind    sample.Kind
		errHas  string
		want    []string // what the server read
		checks  map[int32][2]int
	}{
		{"bytes decoded while parsing, echoed and checked", binaryEcho,
			plan.Session{Send: []plan.Send{{Text: tmpl.Literal("\x00\x01\xca\xfe"), Binary: true}}, Until: hasCafe, Checks: []plan.Check{size4}},
			"", sample.OK, "", []string{"binary:0001cafe"}, map[int32][2]int{0: {1, 0}}},
		{"a templated hex payload", binaryEcho,
			plan.Session{Send: []plan.Send{hexMsg("ca fe {{ x }}", plan.Hex, t)}, Until: hasCafe, Checks: []plan.Check{size4}},
			"0a0b", sample.OK, "", []string{"binary:cafe0a0b"}, map[int32][2]int{0: {1, 0}}},
		{"a templated base64 payload", binaryEcho,
			plan.Session{Send: []plan.Send{hexMsg("yv4{{ x }}", plan.Base64, t)}, Until: hasCafe, Checks: []plan.Check{size4}},
			"oKA==", sample.OK, "", []string{"binary:cafe2828"}, map[int32][2]int{0: {1, 0}}},
		{"a text message stays text", binaryEcho,
			plan.Session{Send: []plan.Send{text("\xca\xfe")}, MaxMessages: 1},
			"", sample.OK, "", []string{"text:\xca\xfe"}, nil},
		{"a templated payload that does not decode fails the session", binaryEcho,
			plan.Session{Send: []plan.Send{hexMsg("ca fe {{ x }}", plan.Hex, t)}, Until: hasCafe},
			"0g", sample.Other, `its hex as rendered ("ca fe 0g"): not hexadecimal`, nil, nil},
		{"replies: text with an extracted id, binary by size", pinger,
			plan.Session{Replies: replies, Until: done},
			"", sample.OK, "", []string{`text:{"type": "pong", "id": "p1"}`, `text:{"type": "pong", "id": "p2"}`,
				`text:{"type": "pong", "id": "p3"}`, "binary:beef"}, map[int32][2]int{1: {3, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := &received{}
			s := tt.s
			s.URL, s.Timeout, s.MaxMessage = tmpl.Literal(serve(t, tt.handler(got))), 5*time.Second, plan.DefaultMaxMessage
			st, _ := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			vu.TC.Vars[0] = tt.x
			sess.Run(context.Background(), vu, time.Now())
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) {
				t.Fatalf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			if tt.kind == sample.OK && f.MsgsSent != int64(len(tt.want)) {
				t.Errorf("%d messages sent, want %d", f.MsgsSent, len(tt.want))
			}
			if w := got.all(); tt.want != nil && !slices.Equal(w, tt.want) {
				t.Errorf("the server read %q, want %q", w, tt.want)
			}
			for id, want := range tt.checks {
				if vu.Checks[id] != want {
					t.Errorf("check %d: %v passes/fails, want %v", id, vu.Checks[id], want)
				}
			}
		})
	}
}

// TestReplyBesideTheScheduledSender: a reply's extract: writes the
// variable that the every: message renders from the other goroutine; under
// -race an unguarded write fails this test.
func TestReplyBesideTheScheduledSender(t *testing.T) {
	sc := &tmpl.Scope{Vars: map[string]int{"id": 0}}
	ping, _ := tmpl.Compile(`{"type": "ping", "id": "x{{ id }}"}`, sc)
	pong, _ := tmpl.Compile(`{"type": "pong", "id": "{{ id }}"}`, sc)
	isPing := plan.Check{From: plan.FromJSON, Path: jsonpath.MustParse("$.type"), Op: plan.OpEq, Values: []string{"ping"}}
	s := plan.Session{URL: tmpl.Literal(serve(t, echo)), Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage,
		Duration: 150 * time.Millisecond, Send: []plan.Send{{Text: ping, Every: 2 * time.Millisecond}},
		Replies: []plan.Reply{{On: isPing, Send: plan.Send{Text: pong},
			Extract: []plan.Extract{{Var: 0, Name: "id", From: plan.FromJSON, Path: jsonpath.MustParse("$.id"), Check: 0}}}}}
	st, _ := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	sess.Run(context.Background(), vu, time.Now())
	r, f := vu.Samples[0], vu.Facts[0]
	if r.Kind != sample.OK || f.MsgsSent < 4 || vu.Checks[0][0] < 2 || vu.Checks[0][1] != 0 {
		t.Errorf("kind %v (%q), %d sent, extract check %v; want ok, pings and their replies", r.Kind, r.Err, f.MsgsSent, vu.Checks[0])
	}
}
