package plan

import (
	"errors"
	"strings"
	"testing"
	"time"
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
	if ep.Name != "SSE /events" || ep.Protocol != "sse" || !ep.Plain {
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
			var es Errors
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
