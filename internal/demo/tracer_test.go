package demo

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// TestTracerSamplesAsParentBasedNeverSample: a span is recorded only under
// a sampled parent, as the SDK's ParentBased(NeverSample) did, and keeps
// the parent's trace.
func TestTracerSamplesAsParentBasedNeverSample(t *testing.T) {
	tid := trace.TraceID{1, 2, 3}
	remote := func(f trace.TraceFlags) context.Context {
		return trace.ContextWithRemoteSpanContext(context.Background(),
			trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{9}, TraceFlags: f, Remote: true}))
	}
	tests := []struct {
		name   string
		ctx    context.Context
		record bool
	}{
		{"root", context.Background(), false},
		{"sampled parent", remote(trace.FlagsSampled), true},
		{"unsampled parent", remote(0), false},
	}
	for _, tc := range tests {
		exp := &spanExporter{queue: make(chan *spanRecord, 4)}
		tr := (&provider{exp: exp}).Tracer("x")
		ctx, s := tr.Start(tc.ctx, "outer")
		_, child := tr.Start(ctx, "inner")
		child.End()
		s.End()
		if got := len(exp.queue); got != map[bool]int{true: 2, false: 0}[tc.record] {
			t.Errorf("%s: %d spans exported", tc.name, got)
		}
		if tc.record && (s.SpanContext().TraceID() != tid || (<-exp.queue).Parent != s.SpanContext().SpanID()) {
			t.Errorf("%s: the child is not in the parent's trace under its span", tc.name)
		}
	}
}

// TestSpanStatusToOTLP: statuses only rise (Unset < Error < Ok), and the
// API's codes are renumbered as OTLP's; an error is an exception event.
func TestSpanStatusToOTLP(t *testing.T) {
	tests := []struct {
		set  []codes.Code
		want tracepb.Status_StatusCode
	}{
		{nil, tracepb.Status_STATUS_CODE_UNSET},
		{[]codes.Code{codes.Error}, tracepb.Status_STATUS_CODE_ERROR},
		{[]codes.Code{codes.Error, codes.Unset}, tracepb.Status_STATUS_CODE_ERROR},
		{[]codes.Code{codes.Ok, codes.Error}, tracepb.Status_STATUS_CODE_OK},
	}
	for _, tc := range tests {
		exp := &spanExporter{queue: make(chan *spanRecord, 1)}
		ctx := trace.ContextWithRemoteSpanContext(context.Background(),
			trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}, TraceFlags: trace.FlagsSampled}))
		_, s := (&provider{exp: exp}).Tracer("x").Start(ctx, "s")
		for _, c := range tc.set {
			s.SetStatus(c, "broken")
		}
		s.RecordError(errors.New("boom"))
		s.End()
		pb := spanPB(<-exp.queue)
		if got := pb.GetStatus().GetCode(); got != tc.want {
			t.Errorf("%v: status %v, want %v", tc.set, got, tc.want)
		}
		if len(pb.Events) != 1 || pb.Events[0].Name != "exception" {
			t.Errorf("%v: events %v, want one exception", tc.set, pb.Events)
		}
	}
}
