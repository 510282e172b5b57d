package output

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/klauspost/compress/snappy"
)

// promRW writes Prometheus remote write 1.0: snappy-compressed protobuf
// WriteRequests. Floats and native histograms go in separate requests, so
// that a Prometheus without native histograms enabled, which refuses the
// histograms, still stores every count and trend.
type promRW struct {
	p      poster
	runID  string
	warn   func(format string, args ...any)
	noHist atomic.Bool // the receiver said it takes no native histograms
}

func newPromRW(p poster, runID string, warn func(string, ...any)) *promRW {
	return &promRW{p: p, runID: runID, warn: warn}
}

// histogramsDisabled is what Prometheus answers to native histograms when
// started without --enable-feature=native-histograms.
const histogramsDisabled = "native histograms are disabled"

// Write implements Sink.
func (s *promRW) Write(ctx context.Context, frames []*Frame) error {
	floats, hists := promSeries(s.runID, frames)
	if err := s.send(ctx, floats); err != nil {
		return err
	}
	if s.noHist.Load() {
		return nil
	}
	err := s.send(ctx, hists)
	if err != nil && strings.Contains(err.Error(), histogramsDisabled) {
		// the counts and gauges arrived; histograms would only fail again
		s.noHist.Store(true)
		s.warn("the store refuses native histograms (%v): %s is not sent; start Prometheus with --enable-feature=native-histograms to have it",
			err, promDurationHist)
		return nil
	}
	return err
}

// send posts one WriteRequest.
func (s *promRW) send(ctx context.Context, ts []rwSeries) error {
	if len(ts) == 0 {
		return nil
	}
	return s.p.post(ctx, snappy.Encode(nil, marshalWriteRequest(ts)))
}

// Close implements Sink.
func (s *promRW) Close() { s.p.close() }
