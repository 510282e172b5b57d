package sse

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// stream is a test server's behaviour: events, then what it does next.
type stream struct {
	status int
	ctype  string
	events []string // raw event blocks, each ending in a blank line
	after  string   // "stall", "close", "resume" (close, then stall on a reconnection) or "loop" (repeat the events until the client leaves)
	// resume: the first connection serves half the events, a reconnection
	// those after its Last-Event-ID.
	resume bool
}

func (sv *stream) serve(stop <-chan struct{}, seen *sync.Map) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("Last-Event-ID"), true)
		w.Header().Set("Content-Type", sv.ctype)
		w.WriteHeader(sv.status)
		evs := sv.events
		if sv.resume { // the first connection serves half the events, a reconnection the rest
			evs = evs[:len(evs)/2]
			if id, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil {
				evs = sv.events[min(id, len(sv.events)):]
			}
		}
		fl := w.(http.Flusher)
		for round := 0; round < 100000; round++ {
			for _, e := range evs {
				if _, err := fmt.Fprint(w, e); err != nil {
					return
				}
				fl.Flush()
			}
			if sv.after != "loop" {
				break
			}
		}
		switch sv.after {
		case "stall":
			select {
			case <-stop:
			case <-r.Context().Done():
			}
		case "resume":
			if r.Header.Get("Last-Event-ID") == "" {
				return // the first connection closes
			}
			select {
			case <-stop:
			case <-r.Context().Done():
			}
		}
	}
}

func events(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("id: %d\ndata: {\"n\": %d}\n\n", i, i))
	}
	return out
}

func runSession(t *testing.T, sv *stream, s plan.Session, ctx context.Context) (*prototest.VU, *sync.Map) {
	t.Helper()
	stop := make(chan struct{})
	seen := &sync.Map{}
	srv := httptest.NewServer(sv.serve(stop, seen))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	s.URL = tmpl.Literal(srv.URL + "/events")
	if s.MaxMessage == 0 {
		s.MaxMessage = plan.DefaultMaxMessage
	}
	st, err := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	sess.Run(ctx, vu, time.Now())
	if len(vu.Samples) != 1 {
		t.Fatalf("%d samples, want 1 per session", len(vu.Samples))
	}
	return vu, seen
}

func TestSession(t *testing.T) {
	tick := plan.Check{ID: 0, From: plan.FromJSON, Path: jsonpath.MustParse("$.n"), Op: plan.OpLte, Values: []string{"3"}}
	ok200 := plan.Check{ID: 1, From: plan.FromStatus, Op: plan.OpIn, Values: []string{"200"}}
	tests := []struct {
		name       string
		sv         stream
		s          plan.Session
		kind       sample.Kind
		errHas     string
		received   int64
		reconnects int64
		checks     map[int32][2]int
		lastIDSeen string // a Last-Event-ID the server must have received
	}{
		{"max events", stream{status: 200, ctype: "text/event-stream", events: events(5), after: "stall"},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 5, Checks: []plan.Check{tick, ok200}},
			sample.OK, "", 5, 0, map[int32][2]int{0: {3, 2}, 1: {1, 0}}, ""},
		{"stalls mid-stream: a timeout, events kept", stream{status: 200, ctype: "text/event-stream; charset=utf-8", events: events(2), after: "stall"},
			plan.Session{Timeout: 200 * time.Millisecond, MaxMessages: 10},
			sample.Timeout, "no event within the timeout (200ms) after 2 events", 2, 0, nil, ""},
		{"closes, reconnects with Last-Event-ID", stream{status: 200, ctype: "text/event-stream", events: events(6), after: "resume", resume: true},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 6, Reconnects: 2},
			sample.OK, "", 6, 1, nil, "3"},
		{"reconnections run out", stream{status: 200, ctype: "text/event-stream", events: events(4), after: "close", resume: true},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 6, Reconnects: 1},
			sample.ConnReset, "closed the stream after 4 events, before the step's end (reconnect: 1)", 4, 1, nil, "2"},
		{"closes before the end, no reconnect left", stream{status: 200, ctype: "text/event-stream", events: events(2), after: "close"},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 5},
			sample.ConnReset, "closed the stream after 2 events", 2, 0, nil, ""},
		{"server error", stream{status: 503, ctype: "text/plain"},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 5, Checks: []plan.Check{ok200}},
			sample.HTTP5xx, "status 503", 0, 0, map[int32][2]int{1: {0, 1}}, ""},
		{"not an event stream", stream{status: 200, ctype: "application/json"},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 5},
			sample.Other, `Content-Type "application/json"`, 0, 0, nil, ""},
		{"an event past max_event_size fails, memory bounded", stream{status: 200, ctype: "text/event-stream",
			events: []string{"data: " + strings.Repeat("x", 1<<20) + "\n\n"}, after: "stall"},
			plan.Session{Timeout: 5 * time.Second, MaxMessages: 5, MaxMessage: 1024},
			sample.Other, "longer than max_event_size (1 KiB)", 0, 0, nil, ""},
		{"duration ends an endless stream", stream{status: 200, ctype: "text/event-stream", events: []string{"data: x\n\n"}, after: "loop"},
			plan.Session{Timeout: 5 * time.Second, Duration: 100 * time.Millisecond},
			sample.OK, "", -1, 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vu, seen := runSession(t, &tt.sv, tt.s, context.Background())
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) {
				t.Errorf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			if tt.received >= 0 && f.MsgsReceived != tt.received || tt.received < 0 && f.MsgsReceived == 0 {
				t.Errorf("received %d events, want %d", f.MsgsReceived, tt.received)
			}
			if want := min(max(f.MsgsReceived-1, 0), sample.MaxGaps); int64(len(f.Gaps)) != want {
				t.Errorf("%d gaps for %d events", len(f.Gaps), f.MsgsReceived)
			}
			if f.MsgsReceived > 0 && (f.FirstMsg <= 0 || f.FirstMsg > r.Duration) {
				t.Errorf("time to first event %v outside (0, %v]", f.FirstMsg, r.Duration)
			}
			if f.Session <= 0 || f.Session > r.Duration {
				t.Errorf("session %v outside (0, %v]", f.Session, r.Duration)
			}
			if tt.s.Duration > 0 && f.Session < tt.s.Duration {
				t.Errorf("session %v shorter than its duration %v", f.Session, tt.s.Duration)
			}
			for id, want := range tt.checks {
				if vu.Checks[id] != want {
					t.Errorf("check %d: %v passes/fails, want %v", id, vu.Checks[id], want)
				}
			}
			if f.Reconnects != tt.reconnects {
				t.Errorf("%d reconnections, want %d", f.Reconnects, tt.reconnects)
			}
			if tt.lastIDSeen != "" {
				if _, ok := seen.Load(tt.lastIDSeen); !ok {
					t.Errorf("no reconnection sent Last-Event-ID: %s", tt.lastIDSeen)
				}
				if _, ok := seen.Load(""); !ok {
					t.Error("the first connection sent a Last-Event-ID")
				}
			}
		})
	}
}

// TestSessionInterrupted: the run's end cuts a session off: it is recorded
// as interrupted, with the events it had.
func TestSessionInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: a\n\ndata: b\n\n")
		w.(http.Flusher).Flush()
		cancel() // the run ends while the stream is open
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	s := plan.Session{URL: tmpl.Literal(srv.URL), Timeout: time.Minute, Duration: time.Minute, MaxMessage: 1024}
	st, _ := Protocol{}.Prepare(&s, protocol.Env{Dialer: &net.Dialer{}, TLS: func() *tls.Config { return &tls.Config{} }})
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	sess.Run(ctx, vu, time.Now())
	if len(vu.Samples) != 1 || vu.Samples[0].Kind != sample.Interrupted {
		t.Fatalf("samples %+v, want one interrupted", vu.Samples)
	}
	if got := vu.Facts[0].MsgsReceived; got > 2 {
		t.Errorf("%d events, want at most the 2 sent", got)
	}
}
