package otlp

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// The collector's decoder's reading of an export, the reference decodeProto
// and jsonToProto are checked against: pdata's traces reduced to what
// attribution reads. Attribute names are read in both the current semantic
// conventions and the older ones instrumentations still emit.

// convert reduces OTLP traces to what attribution reads.
func convert(td ptrace.Traces) []spans.Span {
	var out []spans.Span
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		rs := rss.At(i)
		service := bounded(str(rs.Resource().Attributes(), "service.name"), maxText)
		sss := rs.ScopeSpans()
		for j := range sss.Len() {
			ss := sss.At(j).Spans()
			for k := range ss.Len() {
				out = append(out, span(ss.At(k), service))
			}
		}
	}
	return out
}

func span(s ptrace.Span, service string) spans.Span {
	a := s.Attributes()
	out := spans.Span{Trace: sample.TraceID(s.TraceID()), ID: spans.SpanID(s.SpanID()), Parent: spans.SpanID(s.ParentSpanID()),
		Service: service, Name: bounded(s.Name(), maxText), Start: s.StartTimestamp().AsTime(), End: s.EndTimestamp().AsTime(),
		DBSystem:  bounded(first(a, "db.system", "db.system.name"), maxText),
		Statement: bounded(first(a, "db.statement", "db.query.text"), maxStatement),
	}
	switch s.Kind() {
	case ptrace.SpanKindServer:
		out.Kind = spans.KindServer
	case ptrace.SpanKindClient:
		out.Kind = spans.KindClient
	}
	if out.Kind == spans.KindClient && out.DBSystem == "" && first(a, "http.request.method", "http.method", "url.full", "http.url") != "" {
		out.Host = peerHost(first(a, "server.address", "net.peer.name", "http.host"), port(a, "server.port", "net.peer.port"), first(a, "url.full", "http.url"))
	}
	return out
}

// first returns the first of the attributes that is set, as text.
func first(a pcommon.Map, keys ...string) string {
	for _, k := range keys {
		if v := str(a, k); v != "" {
			return v
		}
	}
	return ""
}

// port returns the first port attribute set, an int or a string, as text.
func port(a pcommon.Map, keys ...string) string {
	for _, k := range keys {
		if v, ok := a.Get(k); ok && (v.Type() == pcommon.ValueTypeInt || v.Type() == pcommon.ValueTypeStr) && v.AsString() != "" {
			return v.AsString()
		}
	}
	return ""
}

// str returns a string attribute; "" for another type (of those convert
// reads only a port is a number: port reads it).
func str(a pcommon.Map, key string) string {
	if v, ok := a.Get(key); ok && v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return ""
}
