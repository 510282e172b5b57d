package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

func TestParseTracing(t *testing.T) {
	runValid(t, []validCase{
		{"no tracing section: traceparent unsampled", "t.yaml", minimal, func(t *testing.T, p *Plan) {
			if p.Tracing != (Tracing{Keep: DefaultTraceKeep}) || p.Observe.Traces != nil {
				t.Errorf("tracing %+v, traces %+v", p.Tracing, p.Observe.Traces)
			}
		}},
		{"the documented example", "t.yaml", minimal + `tracing:
  sample: 0.1
  tracestate: true
  baggage: true
  keep: 20
  ui: "http://127.0.0.1:3000/explore?left={\"queries\":[{\"query\":\"{trace_id}\"}]}"
observe:
  traces: {listen: "127.0.0.1:4318", grpc: "127.0.0.1:4317"}
`, func(t *testing.T, p *Plan) {
			want := Tracing{Sample: 0.1, TraceState: true, Baggage: true, Keep: 20,
				UI: `http://127.0.0.1:3000/explore?left={"queries":[{"query":"{trace_id}"}]}`}
			if p.Tracing != want {
				t.Errorf("tracing %+v, want %+v", p.Tracing, want)
			}
			if p.Observe.Traces == nil || *p.Observe.Traces != (ObserveTraces{Listen: "127.0.0.1:4318", GRPC: "127.0.0.1:4317"}) || len(p.Observe.Targets) != 0 {
				t.Errorf("observe %+v", p.Observe)
			}
		}},
		{"a receiver samples every request by default", "t.yaml", minimal + "observe:\n  traces: {listen: '127.0.0.1:0'}\n", func(t *testing.T, p *Plan) {
			if p.Tracing.Sample != 1 {
				t.Errorf("sample %v, want 1", p.Tracing.Sample)
			}
		}},
		{"a section without sample samples everything", "t.yaml", minimal + "tracing: {tracestate: true}\n", func(t *testing.T, p *Plan) {
			if p.Tracing.Sample != 1 || !p.Tracing.TraceState {
				t.Errorf("tracing %+v", p.Tracing)
			}
		}},
	})
}

// TestTracesToken: the receiver's token, written or from the environment,
// is kept out of the stored source.
func TestTracesToken(t *testing.T) {
	env := func(string) (string, bool) { return "env-0123456789abcdef", true }
	for src, want := range map[string]string{
		"observe:\n  traces: {listen: '0.0.0.0:4318', token: tok-0123456789abcdef}\n": "tok-0123456789abcdef",
		"observe:\n  traces: {listen: '0.0.0.0:4318', token: '{{ env.T }}'}\n":        "env-0123456789abcdef",
	} {
		p, err := Parse("t.yaml", []byte(minimal+src), env)
		if err != nil {
			t.Fatal(err)
		}
		if p.Observe.Traces.Token != want || strings.Contains(string(p.Source), want) {
			t.Errorf("token %q, want %q; source:\n%s", p.Observe.Traces.Token, want, p.Source)
		}
	}
}

func TestParseTracingErrors(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"sample above 1", "tracing: {sample: 1.5}\n", "4:19: tracing.sample: must be from 0 to 1 (a share of requests, like 0.1), got 1.5"},
		{"sample as text", "tracing: {sample: '10%'}\n", "4:19: tracing.sample: expected a share of requests from 0 to 1, like 0.1, got a string \"10%\""},
		{"unknown key", "tracing: {sampel: 0.1}\n", `4:11: tracing.sampel: unknown key "sampel"; did you mean "sample"? (allowed: sample, tracestate, baggage, ui, keep)`},
		{"ui without trace_id", "tracing: {ui: 'http://tempo/trace'}\n", `4:15: tracing.ui: must contain {trace_id}, where the trace id goes, got "http://tempo/trace"`},
		{"ui not http", "tracing: {ui: 'tempo/{trace_id}'}\n", `4:15: tracing.ui: bad trace UI URL "tempo/{trace_id}": expected http:// or https:// and a host`},
		{"keep too high", "tracing: {keep: 5000}\n", "4:17: tracing.keep: must be at most 1000, got 5000"},
		{"traces without listen", "observe:\n  traces: {}\n", `5:3: observe.traces: missing key "listen": the host:port of the OTLP/HTTP receiver, like 127.0.0.1:4318`},
		{"a bad gRPC address", "observe:\n  traces: {listen: '127.0.0.1:0', grpc: 'h'}\n", `5:41: observe.traces.grpc: bad listen address "h": expected host:port, like 127.0.0.1:4317 (port 0 picks a free one)`},
		{"a short token", "observe:\n  traces: {listen: '0.0.0.0:0', token: short}\n", `5:40: observe.traces.token: a traces token needs at least 16 characters, got 5`},
		{"a token with a space", "observe:\n  traces: {listen: '0.0.0.0:0', token: 'a token with a space'}\n", `5:40: observe.traces.token: a traces token may hold printable ASCII only, without spaces, quotes, commas, semicolons, percent signs or backslashes`},
		{"traces with a bad address", "observe:\n  traces: {listen: '4318'}\n", `5:20: observe.traces.listen: bad listen address "4318": expected host:port, like 127.0.0.1:4318 (port 0 picks a free one)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("testdata/t.yaml", []byte(minimal+tt.src), noEnv)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "testdata/t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\ntestdata/t.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
