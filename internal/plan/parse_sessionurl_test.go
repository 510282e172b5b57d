package plan

import (
	"errors"
	"testing"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// noBase is head without base_url: steps appended to it start on line 6.
const noBase = `scenarios:
  s:
    rate: 10
    duration: 1m
    flow:
`

// TestTemplatedSessionURL: a ws: or sse: step whose whole URL is a
// template is dialled where its value says, as the same URL written
// literally is (a ws:// value was joined to base_url as a path, or sent
// as "/ws://…" without it: "malformed ws or wss URL"); a value known
// before the run that no dial could use is an error at the step's line,
// naming the template; a grpc: target may be an env lookup, not a value
// per VU.
func TestTemplatedSessionURL(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"WS": "ws://127.0.0.1:9/chat", "WSS": "WSS://127.0.0.1:9/chat?room=1",
			"HTTP": "http://127.0.0.1:9/chat", "REL": "/chat", "FTP": "ftp://127.0.0.1/chat", "NOHOST": "ws:///chat",
			"GRPC": "grpcs://127.0.0.1:50051"}[k]
		return v, ok
	}
	tests := []struct {
		name, src string
		want      string // the URL rendered, or the gRPC target
		err       string // the whole error, when the test is refused
	}{
		{"ws value", head + "      - ws: '{{ env.WS }}'\n        max_messages: 1\n", "ws://127.0.0.1:9/chat", ""},
		{"wss value in capitals, a query added", head + "      - ws: '{{ env.WSS }}'\n        query: {a: 1}\n        max_messages: 1\n", "WSS://127.0.0.1:9/chat?room=1&a=1", ""},
		{"http value", head + "      - ws: '{{ env.HTTP }}'\n        max_messages: 1\n", "http://127.0.0.1:9/chat", ""},
		{"relative value joined to base_url", head + "      - ws: '{{ env.REL }}'\n        max_messages: 1\n", "http://127.0.0.1:8080/chat", ""},
		{"sse http value", head + "      - sse: '{{ env.HTTP }}'\n        max_events: 1\n", "http://127.0.0.1:9/chat", ""},
		{"ws value on an sse: step", head + "      - sse: '{{ env.WS }}'\n        max_events: 1\n", "",
			`7:14: scenarios.s.flow[0].sse: {{ env.WS }} is "ws://127.0.0.1:9/chat": an sse: step's URL is http:// or https:// and a host`},
		{"ftp value", head + "      - ws: '{{ env.FTP }}'\n        max_messages: 1\n", "",
			`7:13: scenarios.s.flow[0].ws: {{ env.FTP }} is "ftp://127.0.0.1/chat": a ws: step's URL is ws://, wss://, http:// or https:// and a host`},
		{"no host", head + "      - ws: '{{ env.NOHOST }}'\n        max_messages: 1\n", "",
			`7:13: scenarios.s.flow[0].ws: {{ env.NOHOST }} is "ws:///chat", a bad URL: it has no host`},
		{"relative value without base_url", noBase + "      - ws: '{{ env.REL }}'\n        max_messages: 1\n", "",
			`6:13: scenarios.s.flow[0].ws: {{ env.REL }} is "/chat", a relative path: it needs base_url at the top of the file, or a full ws://, wss://, http:// or https:// URL`},
		{"grpc env target", head + "      - grpc: '{{ env.GRPC }}'\n        method: a.B/C\n", "127.0.0.1:50051", ""},
		{"grpc target per VU", head + "      - grpc: 'grpc://127.0.0.1:{{ vu }}'\n        method: a.B/C\n", "",
			`7:15: scenarios.s.flow[0].grpc: a grpc: target is connected to before the run: it may use {{ env... }}, but not "grpc://127.0.0.1:{{ vu }}", whose value changes per VU or iteration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(tt.src), env)
			if tt.err != "" {
				var es yamldoc.Errors
				if !errors.As(err, &es) || err.Error() != "t.yaml:"+tt.err {
					t.Fatalf("error:\n%v\nwant:\nt.yaml:%s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := p.Scenarios[0].Flow[0].Session
			got := ""
			if s.GRPC != nil {
				got = s.GRPC.Target
			} else {
				got = string(s.URL.Render(nil, &tmpl.Context{}))
			}
			if got != tt.want || (s.GRPC != nil && !s.GRPC.TLS) {
				t.Errorf("dialled %q, want %q", got, tt.want)
			}
		})
	}
}
