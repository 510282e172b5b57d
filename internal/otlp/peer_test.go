package otlp

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/loadlens/loadlens/internal/spans"
)

// TestPeerNamesItsPort: an outgoing HTTP call's peer is host:port when the
// span gives a port (server.port, net.peer.port, or the URL's), so two
// dependencies on one host are not merged (trial A, stop 40: a mock on
// 127.0.0.1:9301 was named 127.0.0.1); the scheme's default ports are left
// out, so a name does not depend on whether the instrumentation sets them.
func TestPeerNamesItsPort(t *testing.T) {
	cases := []struct {
		name  string
		attrs map[string]any
		want  string
	}{
		{"server.address and an int server.port", map[string]any{"http.request.method": "GET", "url.full": "http://127.0.0.1:9301/rates", "server.address": "127.0.0.1", "server.port": int64(9301)}, "127.0.0.1:9301"},
		{"the port as text", map[string]any{"http.request.method": "GET", "server.address": "127.0.0.1", "server.port": "9302"}, "127.0.0.1:9302"},
		{"older conventions", map[string]any{"http.method": "GET", "net.peer.name": "127.0.0.1", "net.peer.port": int64(9301)}, "127.0.0.1:9301"},
		{"the URL's port", map[string]any{"http.request.method": "GET", "url.full": "http://127.0.0.1:9301/rates"}, "127.0.0.1:9301"},
		{"http.url's port beside server.address", map[string]any{"http.method": "GET", "http.url": "http://rates.local:8081/x", "server.address": "rates.local"}, "rates.local:8081"},
		{"another host's URL lends no port", map[string]any{"http.method": "GET", "http.url": "http://proxy:3128/x", "server.address": "rates.local"}, "rates.local"},
		{"IPv6", map[string]any{"http.request.method": "GET", "server.address": "::1", "server.port": int64(9301)}, "[::1]:9301"},
		{"https's default port left out", map[string]any{"http.request.method": "GET", "server.address": "api.example.com", "server.port": int64(443)}, "api.example.com"},
		{"http's default port left out", map[string]any{"http.request.method": "GET", "url.full": "http://api.example.com:80/x"}, "api.example.com"},
		{"no port", map[string]any{"http.request.method": "GET", "server.address": "payments.local"}, "payments.local"},
		{"a port out of range is no port", map[string]any{"http.request.method": "GET", "server.address": "payments.local", "server.port": int64(70000)}, "payments.local"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			td := ptrace.NewTraces()
			s := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
			s.SetKind(ptrace.SpanKindClient)
			s.SetName("GET")
			if err := s.Attributes().FromRaw(tc.attrs); err != nil {
				t.Fatal(err)
			}
			pb, _ := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
			js, _ := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
			fromJSON, err := jsonToProto(js)
			if err != nil {
				t.Fatal(err)
			}
			for enc, b := range map[string][]byte{"protobuf": pb, "json": fromJSON} {
				var got []spans.Span
				if err := decodeProto(b, func(s *spans.Span) { got = append(got, *s) }); err != nil || len(got) != 1 {
					t.Fatalf("%s: %d spans, %v", enc, len(got), err)
				}
				if got[0].Host != tc.want {
					t.Errorf("%s: peer %q, want %q", enc, got[0].Host, tc.want)
				}
			}
			if ref := convert(td); len(ref) != 1 || ref[0].Host != tc.want {
				t.Errorf("the collector's reading: %+v, want peer %q", ref, tc.want)
			}
		})
	}
}

// TestPeerPortAsAJSONNumber reads trial A's own exporter's form, an
// intValue written as a JSON number rather than the string OTLP/JSON uses.
func TestPeerPortAsAJSONNumber(t *testing.T) {
	body := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"GET","kind":3,` +
		`"attributes":[{"key":"http.request.method","value":{"stringValue":"GET"}},{"key":"url.full","value":{"stringValue":"http://127.0.0.1:9301/rates"}},` +
		`{"key":"server.address","value":{"stringValue":"127.0.0.1"}},{"key":"server.port","value":{"intValue":9301}}]}]}]}]}`
	pb, err := jsonToProto([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	var got []spans.Span
	if err := decodeProto(pb, func(s *spans.Span) { got = append(got, *s) }); err != nil || len(got) != 1 || got[0].Host != "127.0.0.1:9301" {
		t.Errorf("%+v, %v; want one span of peer 127.0.0.1:9301", got, err)
	}
}
