package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

func TestParseSSE(t *testing.T) {
	src := head + `      - sse: /events?topic=a
        headers: {Authorization: Bearer x}
        duration: 10s
        max_events: 50
        max_event_size: 4KiB
        reconnect: 3
        timeout: 2s
        check:
          - json: $.kind
            eq: tick
`
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := p.Scenarios[0].Flow[0]
	if st.Kind != SessionStep || st.Session == nil {
		t.Fatalf("step %+v is not a session step", st)
	}
	s := st.Session
	u, _ := s.URL.Const()
	if s.Protocol != "sse" || u != "http://127.0.0.1:8080/events?topic=a" || s.Duration != 10*time.Second ||
		s.MaxMessages != 50 || s.MaxMessage != 4096 || s.Reconnects != 3 || s.Timeout != 2*time.Second || len(s.Checks) != 1 {
		t.Errorf("session = %+v (url %q)", s, u)
	}
	ep := p.Layout.Endpoints[s.Endpoint]
	if ep.Name != "SSE /events" || ep.Protocol != "sse" || !ep.Plain || !ep.Session { // held open: no request latency
		t.Errorf("endpoint = %+v", ep)
	}
	if got := p.Scenarios[0].RequestsPerIteration(); got != 1 {
		t.Errorf("RequestsPerIteration = %d, want 1: a session is the iteration's request", got)
	}
}

func TestParseSSEInvalid(t *testing.T) {
	tests := []struct {
		name, step, want string
	}{
		{"no end", "      - sse: /events\n", "7:9: scenarios.s.flow[0]: an sse: step needs duration: or max_events: (or both), so that it ends"},
		{"unknown key", "      - sse: /events\n        duration: 1s\n        body: x\n",
			`9:9: scenarios.s.flow[0].body: unknown key "body" (allowed: sse, name, query, headers, timeout, duration, max_events, max_event_size, reconnect, check)`},
		{"bad scheme", "      - sse: ws://127.0.0.1/x\n        duration: 1s\n", `7:14: scenarios.s.flow[0].sse: unsupported URL scheme "ws": use http or https`},
		{"negative reconnect", "      - sse: /e\n        duration: 1s\n        reconnect: -1\n", "9:20: scenarios.s.flow[0].reconnect: must not be negative, got -1"},
		{"zero max_events", "      - sse: /e\n        max_events: 0\n", "8:21: scenarios.s.flow[0].max_events: must be at least 1, got 0"},
		{"zero event size", "      - sse: /e\n        duration: 1s\n        max_event_size: 0\n", "9:25: scenarios.s.flow[0].max_event_size: must be above 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(head+tt.step), nil)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\nt.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestParseWS(t *testing.T) {
	src := head + `      - ws: ws://127.0.0.1:9000/chat
        subprotocols: [chat.v1, chat.v0]
        headers: {X-User: "u{{ vu }}"}
        duration: 10s
        send:
          - text: '{"join": "{{ vu }}"}'
          - text: ping
            every: 1s
        until: {json: $.type, eq: joined}
        check: [{body_contains: "{"}]
`
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Scenarios[0].Flow[0].Session
	u, _ := s.URL.Const()
	if s.Protocol != "ws" || u != "http://127.0.0.1:9000/chat" || len(s.Subprotocols) != 2 || len(s.Send) != 2 ||
		s.Send[1].Every != time.Second || s.Until == nil || s.Until.From != FromJSON || len(s.Checks) != 1 {
		t.Errorf("session = %+v (url %q)", s, u)
	}
	if ep := p.Layout.Endpoints[s.Endpoint]; ep.Name != "WS ws://127.0.0.1:9000/chat" || ep.Protocol != "ws" || !ep.Session {
		t.Errorf("endpoint = %+v", ep)
	}
}

func TestParseWSInvalid(t *testing.T) {
	tests := []struct {
		name, step, want string
	}{
		{"no end", "      - ws: /chat\n", "7:9: scenarios.s.flow[0]: a ws: step needs duration:, max_messages: or until:, so that it ends"},
		{"every without duration", "      - ws: /chat\n        max_messages: 3\n        send: [{text: a, every: 1s}]\n",
			"9:9: scenarios.s.flow[0]: a message sent every: needs the step's duration:, so that the session ends"},
		{"message without text", "      - ws: /chat\n        duration: 1s\n        send: [{every: 1s}]\n", `9:16: scenarios.s.flow[0].send[0]: missing key "text": the message to send (or hex: or base64: for a binary one)`},
		{"reconnect is SSE's", "      - ws: /chat\n        duration: 1s\n        reconnect: 1\n",
			`9:9: scenarios.s.flow[0].reconnect: unknown key "reconnect" (allowed: ws, name, query, headers, subprotocols, timeout, duration, max_messages, max_message_size, send, reply, until, check)`},
		{"in setup", "      - get: /x\nsetup:\n  - ws: /chat\n    duration: 1s\n", "9:5: setup[0].ws: a ws: step is measured, so it belongs in a scenario's flow, not in setup: or teardown:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(head+tt.step), nil)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\nt.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
