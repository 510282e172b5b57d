package plan

import (
	"net"
	"net/url"
	"strings"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// tracingKeys are the keys of the tracing section.
var tracingKeys = []string{"sample", "tracestate", "baggage", "ui", "keep"}

// tracing parses the tracing section. A section without sample samples
// every request, as k6's tracing does.
func (p *parser) tracing(n yamldoc.Node) Tracing {
	t := Tracing{Sample: 1, Keep: DefaultTraceKeep}
	o, ok := p.Object(n, "a mapping with sample, tracestate, baggage, ui, keep", tracingKeys)
	if !ok {
		return t
	}
	if v, ok := o.Get("sample"); ok {
		if f, ok := p.Float(v, "a share of requests from 0 to 1, like 0.1"); ok {
			if f < 0 || f > 1 {
				p.Errs.Add(v.Pos, v.Path, "must be from 0 to 1 (a share of requests, like 0.1), got %s", p.ValueText(v))
			} else {
				t.Sample = f
			}
		}
	}
	if v, ok := o.Get("tracestate"); ok {
		t.TraceState, _ = p.Bool(v)
	}
	if v, ok := o.Get("baggage"); ok {
		t.Baggage, _ = p.Bool(v)
	}
	if v, ok := o.Get("keep"); ok {
		if k, ok := p.Count(v, 1); ok {
			if k > MaxTraceKeep {
				p.Errs.Add(v.Pos, v.Path, "must be at most %d, got %d", MaxTraceKeep, k)
			} else {
				t.Keep = k
			}
		}
	}
	if v, ok := o.Get("ui"); ok {
		t.UI, _ = p.traceUI(v)
	}
	return t
}

// traceUI returns a trace UI URL template: http(s) with {trace_id} in it.
func (p *parser) traceUI(n yamldoc.Node) (string, bool) {
	s, ok := p.NonEmpty(n, `a URL with {trace_id}, like "http://127.0.0.1:3200/trace/{trace_id}"`)
	if !ok {
		return "", false
	}
	if !strings.Contains(s, "{trace_id}") {
		p.Errs.Add(n.Pos, n.Path, "must contain {trace_id}, where the trace id goes, got %q", Redact(s))
		return "", false
	}
	u, err := url.Parse(strings.ReplaceAll(s, "{trace_id}", "0"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Errs.Add(n.Pos, n.Path, "bad trace UI URL %q: expected http:// or https:// and a host", Redact(s))
		return "", false
	}
	p.noteURLSecret(n)
	return Redact(s), true // only shown, as links in the report: never with a credential
}

// observeTraces parses observe.traces: {listen: host:port}.
func (p *parser) observeTraces(n yamldoc.Node) *ObserveTraces {
	o, ok := p.Object(n, "a mapping with listen, like {listen: 127.0.0.1:4318}", []string{"listen", "grpc", "token"})
	if !ok {
		return nil
	}
	v, ok := o.Get("listen")
	if !ok {
		p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"listen\": the host:port of the OTLP/HTTP receiver, like 127.0.0.1:4318")
		return nil
	}
	s, ok := p.hostPort(v, "127.0.0.1:4318")
	if !ok {
		return nil
	}
	t := &ObserveTraces{Listen: s}
	if g, has := o.Get("grpc"); has {
		t.GRPC, _ = p.hostPort(g, "127.0.0.1:4317")
	}
	if v, has := o.Get("token"); has {
		t.Token = p.tracesToken(v)
	}
	return t
}

// tracesToken returns the receiver's token: constant (only env lookups may
// be templated), long enough, of characters a header carries as is.
func (p *parser) tracesToken(n yamldoc.Node) string {
	s, ok := p.NonEmpty(n, `a token of 16 characters or more, like "{{ env.LOADLENS_TRACES_TOKEN }}"`)
	if !ok {
		return ""
	}
	p.noteSecret("token", n)
	t, ok := p.Compile(n, s, &tmpl.Scope{Env: p.Env})
	if !ok {
		return ""
	}
	c, isConst := t.Const()
	switch {
	case !isConst:
		p.Errs.Add(n.Pos, n.Path, "the token is the same for the whole run: only env lookups may be templated")
	case len(c) < MinTracesToken:
		p.Errs.Add(n.Pos, n.Path, "a traces token needs at least %d characters, got %d", MinTracesToken, len(c))
	case strings.ContainsFunc(c, func(r rune) bool { return r <= ' ' || r >= 0x7f || strings.ContainsRune(`;,"\%`, r) }):
		p.Errs.Add(n.Pos, n.Path, "a traces token may hold printable ASCII only, without spaces, quotes, commas, semicolons, percent signs or backslashes")
	default:
		return c
	}
	return ""
}

// hostPort returns a listen address: host:port.
func (p *parser) hostPort(v yamldoc.Node, example string) (string, bool) {
	s, ok := p.NonEmpty(v, "a host:port like "+example)
	if !ok {
		return "", false
	}
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		p.Errs.Add(v.Pos, v.Path, "bad listen address %q: expected host:port, like %s (port 0 picks a free one)", s, example)
		return "", false
	}
	return s, true
}
