package demo

import (
	"context"
	"crypto/rand"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	otelembedded "go.opentelemetry.io/otel/trace/embedded"
)

// The shop's own implementation of the OpenTelemetry tracing API, in place
// of the OTel SDK and its OTLP/HTTP exporter (0.8 MB of every binary for a
// demo): otelsql and the shop's spans talk to the API, and ended spans go
// to spanExporter, which sends them with go.opentelemetry.io/proto/otlp,
// the OTLP library loadlens already links. It samples as the SDK's
// ParentBased(NeverSample) did: a span is recorded only when its parent
// was sampled, so the callers decide how many traces there are.

// provider is a trace.TracerProvider whose recorded spans end in exp.
type provider struct {
	otelembedded.TracerProvider
	exp *spanExporter
}

// Tracer returns the tracer of one instrumentation scope.
func (p *provider) Tracer(name string, _ ...trace.TracerOption) trace.Tracer {
	return &tracer{p: p, scope: name}
}

// tracer starts spans of one instrumentation scope.
type tracer struct {
	otelembedded.Tracer
	p     *provider
	scope string
}

// Start starts a span, a child of the span (or remote span context) in
// ctx; recorded only when that parent was sampled.
func (t *tracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	cfg := trace.NewSpanStartConfig(opts...)
	parent := trace.SpanContextFromContext(ctx)
	if cfg.NewRoot() {
		parent = trace.SpanContext{}
	}
	sc := trace.SpanContextConfig{TraceID: parent.TraceID(), SpanID: newSpanID(), TraceFlags: parent.TraceFlags() & trace.FlagsSampled}
	if !parent.TraceID().IsValid() {
		sc.TraceID, sc.TraceFlags = newTraceID(), 0 // a root: never sampled
	}
	s := &span{sc: trace.NewSpanContext(sc), p: t.p}
	if sc.TraceFlags.IsSampled() {
		kind := cfg.SpanKind()
		if kind == trace.SpanKindUnspecified {
			kind = trace.SpanKindInternal // as the SDK defaults it
		}
		start := cfg.Timestamp()
		if start.IsZero() {
			start = time.Now()
		}
		s.rec = &spanRecord{Scope: t.scope, Name: name, Kind: kind, Parent: parent.SpanID(), Start: start,
			Attrs: append([]attribute.KeyValue(nil), cfg.Attributes()...)}
	}
	return trace.ContextWithSpan(ctx, s), s
}

// spanRecord is what a sampled span exports.
type spanRecord struct {
	Scope, Name   string
	Kind          trace.SpanKind
	Trace         trace.TraceID
	ID, Parent    trace.SpanID
	Start, End    time.Time
	Attrs         []attribute.KeyValue
	Events        []spanEvent
	Status        codes.Code
	StatusMessage string
}

// spanEvent is one event of a span (otelsql records errors as events).
type spanEvent struct {
	Name  string
	Time  time.Time
	Attrs []attribute.KeyValue
}

// span is a live span; rec is nil when it is not recorded.
type span struct {
	otelembedded.Span
	sc  trace.SpanContext
	p   *provider
	mu  sync.Mutex
	rec *spanRecord // nil once ended or when not sampled
}

// End records the span's end and hands it to the exporter, once.
func (s *span) End(opts ...trace.SpanEndOption) {
	s.mu.Lock()
	rec := s.rec
	s.rec = nil
	s.mu.Unlock()
	if rec == nil {
		return
	}
	cfg := trace.NewSpanEndConfig(opts...)
	rec.End = cfg.Timestamp()
	if rec.End.IsZero() {
		rec.End = time.Now()
	}
	rec.Trace, rec.ID = s.sc.TraceID(), s.sc.SpanID()
	s.p.exp.add(rec)
}

// edit runs f on the record while the span is recorded and not ended.
func (s *span) edit(f func(*spanRecord)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		f(s.rec)
	}
}

// AddEvent records an event.
func (s *span) AddEvent(name string, opts ...trace.EventOption) {
	cfg := trace.NewEventConfig(opts...)
	at := cfg.Timestamp()
	if at.IsZero() {
		at = time.Now()
	}
	s.edit(func(r *spanRecord) {
		r.Events = append(r.Events, spanEvent{Name: name, Time: at, Attrs: cfg.Attributes()})
	})
}

// RecordError records err as an "exception" event, as the SDK does.
func (s *span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil {
		return
	}
	opts = append(opts, trace.WithAttributes(attribute.String("exception.message", err.Error())))
	s.AddEvent("exception", opts...)
}

// SetStatus sets the status unless it would lower it (Unset < Error < Ok,
// as the SDK orders them); a description is kept only with an error.
func (s *span) SetStatus(code codes.Code, description string) {
	s.edit(func(r *spanRecord) {
		if code < r.Status {
			return
		}
		r.Status, r.StatusMessage = code, ""
		if code == codes.Error {
			r.StatusMessage = description
		}
	})
}

// SetName renames the span.
func (s *span) SetName(name string) { s.edit(func(r *spanRecord) { r.Name = name }) }

// SetAttributes adds attributes.
func (s *span) SetAttributes(kv ...attribute.KeyValue) {
	s.edit(func(r *spanRecord) { r.Attrs = append(r.Attrs, kv...) })
}

// AddLink is ignored: the shop's spans have no links.
func (s *span) AddLink(trace.Link) {}

// IsRecording tells whether the span is sampled and not ended.
func (s *span) IsRecording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rec != nil
}

// SpanContext is the span's identity, carried to its children.
func (s *span) SpanContext() trace.SpanContext { return s.sc }

// TracerProvider returns the provider that made the span.
func (s *span) TracerProvider() trace.TracerProvider { return s.p }

// newTraceID and newSpanID are random identifiers (crypto/rand never fails).
func newTraceID() (id trace.TraceID) { rand.Read(id[:]); return id }

// newSpanID is a random span identifier.
func newSpanID() (id trace.SpanID) { rand.Read(id[:]); return id }
