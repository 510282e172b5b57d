package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/loadlens/loadlens/internal/spans"
)

// Bounds of one export. The OpenTelemetry SDKs send batches of 512 spans
// (a few hundred KiB) and a collector a few MiB. A protobuf body is read
// span by span (decodeProto), so it costs about its own size; a JSON body
// is decoded whole by the collector's decoder, at several times its size,
// and so is bounded lower.
const (
	maxBody     = 16 << 20 // bytes of a protobuf export as sent (compressed or not) and decompressed
	maxJSONBody = 4 << 20  // the same of a JSON export
	decodeSlots = 2        // exports read and decoded at once
	slotWait    = 10 * time.Second
	bodyTimeout = 15 * time.Second // to read a body once a slot is taken: a slow sender cannot hold it
	keepBatch   = 1024             // spans decoded between two takes of the receiver's lock
)

// errBusy is the error of an export that found every decode slot taken.
var errBusy = errors.New("loadlens OTLP receiver: busy decoding other exports; retry")

// takeSlot waits (bounded) for a decode slot and returns its release.
func (r *Receiver) takeSlot(ctx context.Context) (func(), error) {
	wait := time.NewTimer(r.slotWait)
	defer wait.Stop()
	select {
	case r.slots <- struct{}{}:
		return func() { <-r.slots }, nil
	case <-wait.C:
	case <-ctx.Done():
	}
	return nil, errBusy
}

// decode reads, decodes and keeps one export in a decode slot, taken
// before its body is read, so that exports waiting for one hold no body.
// It returns the HTTP status of a failure.
func (r *Receiver) decode(w http.ResponseWriter, req *http.Request, ctype string) (int, error) {
	limit := int64(maxBody)
	if ctype == "application/json" {
		limit = maxJSONBody
	}
	if req.ContentLength > limit {
		return http.StatusRequestEntityTooLarge, tooLarge(limit, "")
	}
	enc := req.Header.Get("Content-Encoding")
	if enc != "" && enc != "identity" && enc != "gzip" {
		return http.StatusBadRequest, errors.New("unsupported Content-Encoding " + enc + ": use gzip or none")
	}
	release, err := r.takeSlot(req.Context())
	if err != nil {
		return http.StatusServiceUnavailable, err
	}
	defer release()
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyTimeout))
	body, status, err := readBody(w, req, enc == "gzip", limit)
	if err != nil {
		return status, err
	}
	if ctype == "application/json" {
		pb, err := jsonToProto(body)
		if err != nil {
			return http.StatusBadRequest, errors.New("bad OTLP trace export: " + err.Error())
		}
		body = pb
	}
	if err := r.keepProto(body); err != nil {
		return http.StatusBadRequest, errors.New("bad OTLP trace export: " + err.Error())
	}
	return http.StatusOK, nil
}

// keepProto keeps the spans of a protobuf export: all of them or, when it
// is malformed, none (it is checked whole before a span is kept).
func (r *Receiver) keepProto(body []byte) error {
	if err := decodeProto(body, nil); err != nil {
		return err
	}
	batch := make([]spans.Span, 0, keepBatch)
	_ = decodeProto(body, func(s *spans.Span) { // checked: it cannot fail
		batch = append(batch, *s)
		if len(batch) == cap(batch) {
			r.keep(batch)
			batch = batch[:0]
		}
	})
	r.keep(batch)
	r.exported()
	return nil
}

// readBody reads an export's body, decompressing gzip, within limit both
// as sent and decompressed.
func readBody(w http.ResponseWriter, req *http.Request, gz bool, limit int64) ([]byte, int, error) {
	var rd io.Reader = http.MaxBytesReader(w, req.Body, limit)
	if gz {
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return nil, tooLargeOr(err, http.StatusBadRequest), fmt.Errorf("bad gzip body: %w", err)
		}
		defer zr.Close()
		rd = zr
	}
	var buf bytes.Buffer
	if !gz && req.ContentLength > 0 {
		buf.Grow(int(req.ContentLength)) // read once, without doubling
	}
	if _, err := buf.ReadFrom(io.LimitReader(rd, limit+1)); err != nil {
		if tooLargeOr(err, 0) != 0 {
			return nil, http.StatusRequestEntityTooLarge, tooLarge(limit, "")
		}
		return nil, http.StatusBadRequest, fmt.Errorf("read body: %w", err)
	}
	if int64(buf.Len()) > limit {
		return nil, http.StatusRequestEntityTooLarge, tooLarge(limit, " once decompressed")
	}
	return buf.Bytes(), http.StatusOK, nil
}

// tooLargeOr returns 413 when err is the body's bound, else status.
func tooLargeOr(err error, status int) int {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return http.StatusRequestEntityTooLarge
	}
	return status
}

// tooLarge is the error of an export beyond limit.
func tooLarge(limit int64, how string) error {
	return fmt.Errorf("loadlens OTLP receiver: the export is larger than %d MiB%s: send smaller batches (the exporter's or collector's batch size)", limit>>20, how)
}
