package output

import (
	"context"

	"github.com/klauspost/compress/snappy"
	"github.com/prometheus/prometheus/prompb"
)

// promRW writes Prometheus remote write 1.0: snappy-compressed protobuf
// WriteRequests. Floats and native histograms go in separate requests, so
// that a Prometheus without native histograms enabled, which refuses the
// histograms, still stores every count and trend.
type promRW struct {
	p     poster
	runID string
}

func newPromRW(p poster, runID string) *promRW { return &promRW{p: p, runID: runID} }

// Write implements Sink.
func (s *promRW) Write(ctx context.Context, frames []*Frame) error {
	floats, hists := promSeries(s.runID, frames)
	var first error
	for _, ts := range [][]prompb.TimeSeries{floats, hists} {
		if len(ts) == 0 {
			continue
		}
		b, err := (&prompb.WriteRequest{Timeseries: ts}).Marshal()
		if err != nil {
			return err
		}
		if err := s.p.post(ctx, snappy.Encode(nil, b)); err != nil && first == nil {
			first = err // the histograms' request most often fails as the floats' did
		}
	}
	return first
}

// Close implements Sink.
func (s *promRW) Close() { s.p.close() }
