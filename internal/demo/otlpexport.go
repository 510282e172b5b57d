package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// The exporter's limits, the SDK batcher's the shop used: a queue that
// drops when full, a batch sent at 512 spans or after 500 ms, so a run's
// spans arrive within a second or two of its end.
const (
	exportQueue   = 65536
	exportBatch   = 512
	exportDelay   = 500 * time.Millisecond
	exportTimeout = 10 * time.Second
)

// spanExporter batches ended spans and posts them as OTLP/HTTP protobuf.
type spanExporter struct {
	url     string
	service string
	client  *http.Client
	queue   chan *spanRecord
	stop    chan struct{}
	done    chan error // the last export's error, once the queue is drained
}

// newSpanExporter starts an exporter posting to url (…/v1/traces).
func newSpanExporter(url, service string) *spanExporter {
	e := &spanExporter{url: url, service: service, client: &http.Client{Timeout: exportTimeout},
		queue: make(chan *spanRecord, exportQueue), stop: make(chan struct{}), done: make(chan error, 1)}
	go e.loop()
	return e
}

// add queues an ended span; dropped when the queue is full, as the SDK's
// batcher drops, rather than slow the shop down.
func (e *spanExporter) add(r *spanRecord) {
	select {
	case e.queue <- r:
	default:
	}
}

// loop sends a batch when it is full or its delay has passed, and what is
// queued when stopped.
func (e *spanExporter) loop() {
	tick := time.NewTicker(exportDelay)
	defer tick.Stop()
	var batch []*spanRecord
	var last error
	send := func() {
		if len(batch) > 0 {
			if err := e.export(batch); err != nil {
				last = err
			}
			batch = batch[:0]
		}
	}
	for {
		select {
		case r := <-e.queue:
			if batch = append(batch, r); len(batch) >= exportBatch {
				send()
			}
		case <-tick.C:
			send()
		case <-e.stop:
			for n := len(e.queue); n > 0; n-- { // bounded: what was queued when stopped
				batch = append(batch, <-e.queue)
			}
			send()
			e.done <- last
			return
		}
	}
}

// close sends what is queued and stops, waiting at most until ctx ends.
func (e *spanExporter) close(ctx context.Context) error {
	close(e.stop)
	select {
	case err := <-e.done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("demo: exporting the last spans: %w", ctx.Err())
	}
}

// export posts one batch.
func (e *spanExporter) export(batch []*spanRecord) error {
	body, err := proto.Marshal(e.request(batch))
	if err != nil {
		return fmt.Errorf("demo: encoding spans: %w", err)
	}
	resp, err := e.client.Post(e.url, "application/x-protobuf", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("demo: exporting spans: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // drained, so the connection is reused
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("demo: exporting spans to %s: %s", e.url, resp.Status)
	}
	return nil
}

// request is the OTLP message of one batch: one resource, a scope per
// instrumentation scope in the order first seen.
func (e *spanExporter) request(batch []*spanRecord) *coltracepb.ExportTraceServiceRequest {
	rs := &tracepb.ResourceSpans{Resource: &resourcepb.Resource{Attributes: attrsPB([]attribute.KeyValue{attribute.String("service.name", e.service)})}}
	scopes := map[string]*tracepb.ScopeSpans{}
	for _, r := range batch {
		ss := scopes[r.Scope]
		if ss == nil {
			ss = &tracepb.ScopeSpans{Scope: &commonpb.InstrumentationScope{Name: r.Scope}}
			scopes[r.Scope] = ss
			rs.ScopeSpans = append(rs.ScopeSpans, ss)
		}
		ss.Spans = append(ss.Spans, spanPB(r))
	}
	return &coltracepb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{rs}}
}

// spanPB is one span's OTLP message.
func spanPB(r *spanRecord) *tracepb.Span {
	s := &tracepb.Span{TraceId: r.Trace[:], SpanId: r.ID[:], Name: r.Name,
		Kind:              tracepb.Span_SpanKind(r.Kind), // the API's kinds are numbered as OTLP's
		StartTimeUnixNano: uint64(r.Start.UnixNano()), EndTimeUnixNano: uint64(r.End.UnixNano()),
		Attributes: attrsPB(r.Attrs)}
	if r.Parent.IsValid() {
		s.ParentSpanId = r.Parent[:]
	}
	for _, ev := range r.Events {
		s.Events = append(s.Events, &tracepb.Span_Event{Name: ev.Name, TimeUnixNano: uint64(ev.Time.UnixNano()), Attributes: attrsPB(ev.Attrs)})
	}
	switch r.Status { // the API numbers Error 1 and Ok 2, OTLP the other way round
	case codes.Error:
		s.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: r.StatusMessage}
	case codes.Ok:
		s.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_OK}
	}
	return s
}

// attrsPB converts attributes; slices go as their string form, which the
// shop's instrumentation does not set.
func attrsPB(kvs []attribute.KeyValue) []*commonpb.KeyValue {
	out := make([]*commonpb.KeyValue, 0, len(kvs))
	for _, kv := range kvs {
		var v commonpb.AnyValue
		switch kv.Value.Type() {
		case attribute.BOOL:
			v.Value = &commonpb.AnyValue_BoolValue{BoolValue: kv.Value.AsBool()}
		case attribute.INT64:
			v.Value = &commonpb.AnyValue_IntValue{IntValue: kv.Value.AsInt64()}
		case attribute.FLOAT64:
			v.Value = &commonpb.AnyValue_DoubleValue{DoubleValue: kv.Value.AsFloat64()}
		default:
			v.Value = &commonpb.AnyValue_StringValue{StringValue: kv.Value.Emit()}
		}
		out = append(out, &commonpb.KeyValue{Key: string(kv.Key), Value: &v})
	}
	return out
}
