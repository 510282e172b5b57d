package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

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
	queue   chan *tracepb.Span
	stop    chan struct{}
	done    chan error // the last export's error, once the queue is drained
}

// newSpanExporter starts an exporter posting to url (…/v1/traces).
func newSpanExporter(url, service string) *spanExporter {
	e := &spanExporter{url: url, service: service, client: &http.Client{Timeout: exportTimeout},
		queue: make(chan *tracepb.Span, exportQueue), stop: make(chan struct{}), done: make(chan error, 1)}
	go e.loop()
	return e
}

// add queues an ended span; dropped when the queue is full, as the SDK's
// batcher drops, rather than slow the shop down.
func (e *spanExporter) add(r *tracepb.Span) {
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
	var batch []*tracepb.Span
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
func (e *spanExporter) export(batch []*tracepb.Span) error {
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

// request is the OTLP message of one batch: one resource, one scope.
func (e *spanExporter) request(batch []*tracepb.Span) *coltracepb.ExportTraceServiceRequest {
	return &coltracepb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource:   &resourcepb.Resource{Attributes: []*commonpb.KeyValue{strAttr("service.name", e.service)}},
		ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: tracerName}, Spans: batch}},
	}}}
}
