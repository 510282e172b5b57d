package demo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// The shop's own tracer, in place of the OpenTelemetry SDK, its OTLP/HTTP
// exporter and otelsql (2.2 MB of every binary for a demo): spans are
// built as go.opentelemetry.io/proto/otlp messages, the OTLP library
// loadlens links anyway, and sent by spanExporter. It samples as the SDK's
// ParentBased(NeverSample) did: a span is recorded only when its parent was
// sampled, so the callers decide how many traces there are.

// spanContext is a span's identity, carried to its children.
type spanContext struct {
	trace   [16]byte
	id      [8]byte
	sampled bool
}

// parseTraceparent reads a W3C traceparent header; ok is false when it is
// missing or malformed (the span is then a root, not sampled).
func parseTraceparent(h string) (sc spanContext, ok bool) {
	f := strings.Split(strings.TrimSpace(h), "-")
	if len(f) < 4 || len(f[0]) != 2 || f[0] == "ff" || (f[0] == "00" && len(f) != 4) || len(f[1]) != 32 || len(f[2]) != 16 || len(f[3]) != 2 {
		return sc, false
	}
	var flags [1]byte
	if _, err := hex.Decode(sc.trace[:], []byte(f[1])); err != nil {
		return sc, false
	}
	if _, err := hex.Decode(sc.id[:], []byte(f[2])); err != nil {
		return sc, false
	}
	if _, err := hex.Decode(flags[:], []byte(f[3])); err != nil || sc.trace == [16]byte{} || sc.id == [8]byte{} {
		return sc, false
	}
	sc.sampled = flags[0]&1 == 1
	return sc, true
}

// spanKey is the context key of the current span's context.
type spanKey struct{}

// withParent returns ctx carrying sc as the parent of the spans started in it.
func withParent(ctx context.Context, sc spanContext) context.Context {
	return context.WithValue(ctx, spanKey{}, sc)
}

// tracer starts the shop's spans and hands the recorded ones to exp.
type tracer struct {
	exp *spanExporter
}

// start starts a span, a child of the span in ctx; recorded only when that
// parent was sampled. The returned context carries it to its children.
func (t *tracer) start(ctx context.Context, name string, kind tracepb.Span_SpanKind, attrs ...*commonpb.KeyValue) (context.Context, *span) {
	parent, ok := ctx.Value(spanKey{}).(spanContext)
	sc := spanContext{trace: parent.trace, sampled: ok && parent.sampled}
	rand.Read(sc.id[:]) // crypto/rand never fails
	if !ok {
		rand.Read(sc.trace[:])
	}
	s := &span{sc: sc, t: t}
	if sc.sampled {
		s.rec = &tracepb.Span{TraceId: sc.trace[:], SpanId: sc.id[:], Name: name, Kind: kind,
			StartTimeUnixNano: uint64(time.Now().UnixNano()), Attributes: attrs}
		if ok {
			s.rec.ParentSpanId = parent.id[:]
		}
	}
	return withParent(ctx, sc), s
}

// span is a live span; rec is nil when it is not recorded or has ended.
type span struct {
	sc  spanContext
	t   *tracer
	mu  sync.Mutex
	rec *tracepb.Span
}

// End records the span's end and hands it to the exporter, once.
func (s *span) End() {
	s.mu.Lock()
	rec := s.rec
	s.rec = nil
	s.mu.Unlock()
	if rec != nil {
		rec.EndTimeUnixNano = uint64(time.Now().UnixNano())
		s.t.exp.add(rec)
	}
}

// fail records err as an "exception" event and the span's status as an
// error, as otelsql did with the SDK.
func (s *span) fail(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec == nil {
		return
	}
	s.rec.Events = append(s.rec.Events, &tracepb.Span_Event{Name: "exception", TimeUnixNano: uint64(time.Now().UnixNano()),
		Attributes: []*commonpb.KeyValue{strAttr("exception.message", err.Error())}})
	s.rec.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR}
}

// strAttr is a string attribute.
func strAttr(key, value string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: key, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: value}}}
}
