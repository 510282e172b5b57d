package output

import (
	"context"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/loadlens/loadlens/internal/sample"
)

// influx writes InfluxDB line protocol (1.x /write and 2.x /api/v2/write
// take the same body). Points are aggregated per second, one per series
// and second: InfluxDB keeps one point per series and timestamp, so k6's
// point per request lost data where two requests ended in the same
// nanosecond tick (case study 1); here no two points can collide.
type influx struct {
	p     poster
	runID string
}

func newInflux(p poster, runID string) *influx { return &influx{p: p, runID: runID} }

// Write implements Sink.
func (s *influx) Write(ctx context.Context, frames []*Frame) error {
	b, err := influxLines(s.runID, frames)
	if err != nil {
		return err
	}
	return s.p.post(ctx, b)
}

// Close implements Sink.
func (s *influx) Close() { s.p.close() }

// influxLines encodes frames as line protocol, k6's measurement names with
// counts of the second in "value" (so k6's sum("value") queries hold) and
// durations in milliseconds, as k6 writes them.
func influxLines(runID string, frames []*Frame) ([]byte, error) {
	var enc lineprotocol.Encoder
	enc.SetPrecision(lineprotocol.Nanosecond)
	for _, f := range frames {
		for i := range f.Endpoints {
			if f.Endpoints[i].Requests > 0 {
				endpointLines(&enc, &f.Endpoints[i], f.Time, runID)
			}
		}
		scenarioLines(&enc, f, runID)
		checkLines(&enc, f, runID)
	}
	return enc.Bytes(), enc.Err()
}

// endpointLines encodes one endpoint's second: requests by status,
// failures by kind, the failed share, its trends and its bytes.
func endpointLines(enc *lineprotocol.Encoder, e *EndpointFrame, at time.Time, runID string) {
	for c, n := range e.ByStatus {
		if n > 0 {
			endpointLine(enc, "http_reqs", e, statusNames[c], runID)
			enc.AddField("value", floatValue(float64(n)))
			enc.EndLine(at)
		}
	}
	for k, n := range e.Failures {
		if n > 0 {
			enc.StartLine("http_req_failures")
			addTag(enc, "endpoint", e.Endpoint)
			addTag(enc, "kind", sample.Kind(k).String())
			addEndpointTags(enc, e, "", runID)
			enc.AddField("value", floatValue(float64(n)))
			enc.EndLine(at)
		}
	}
	failed := e.Requests - e.ByStatus[StatusOK]
	endpointLine(enc, "http_req_failed", e, "", runID)
	enc.AddField("failed", lineprotocol.IntValue(failed))
	enc.AddField("requests", lineprotocol.IntValue(e.Requests))
	enc.AddField("value", floatValue(float64(failed)/float64(e.Requests)))
	enc.EndLine(at)

	for _, tr := range []struct {
		name string
		t    *Trend
	}{{"http_req_duration", &e.Duration}, {"http_req_waiting", &e.Waiting}} {
		if tr.t.Count > 0 {
			endpointLine(enc, tr.name, e, "", runID)
			addTrendFields(enc, tr.t)
			enc.EndLine(at)
		}
	}
	for _, d := range []struct {
		name string
		n    int64
	}{{"data_received", e.Received}, {"data_sent", e.Sent}} {
		endpointLine(enc, d.name, e, "", runID)
		enc.AddField("value", floatValue(float64(d.n)))
		enc.EndLine(at)
	}
}

// scenarioLines encodes the scenarios' iterations, VUs and iteration
// durations of a frame. iterations_not_sent is loadlens's own measurement
// (k6 has none), named as its threshold metric and summary.json's figure.
func scenarioLines(enc *lineprotocol.Encoder, f *Frame, runID string) {
	for _, s := range f.Scenarios {
		for _, m := range []struct {
			name string
			n    int64
		}{{"dropped_iterations", s.Dropped}, {"iterations", s.Iterations}, {"iterations_not_sent", s.NotSent}, {"vus", s.VUs}, {"vus_max", s.VUsMax}} {
			enc.StartLine(m.name)
			addTag(enc, "scenario", s.Scenario)
			addTag(enc, "testid", runID)
			enc.AddField("value", floatValue(float64(m.n)))
			enc.EndLine(f.Time)
		}
		if s.IterationDuration.Count > 0 {
			enc.StartLine("iteration_duration")
			addTag(enc, "scenario", s.Scenario)
			addTag(enc, "testid", runID)
			addTrendFields(enc, &s.IterationDuration)
			enc.EndLine(f.Time)
		}
	}
}

// checkLines encodes the checks' passes and fails of a frame.
func checkLines(enc *lineprotocol.Encoder, f *Frame, runID string) {
	for _, c := range f.Checks {
		if n := c.Passes + c.Fails; n > 0 {
			enc.StartLine("checks")
			addTag(enc, "check", c.Check)
			addTag(enc, "scenario", c.Scenario)
			addTag(enc, "testid", runID)
			enc.AddField("fails", lineprotocol.IntValue(c.Fails))
			enc.AddField("passes", lineprotocol.IntValue(c.Passes))
			enc.AddField("value", floatValue(float64(c.Passes)/float64(n)))
			enc.EndLine(f.Time)
		}
	}
}

// addTrendFields adds a trend's stats in milliseconds, its mean as
// "value" (k6's field), and its count.
func addTrendFields(enc *lineprotocol.Encoder, t *Trend) {
	enc.AddField("count", lineprotocol.IntValue(t.Count))
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"max", t.Max}, {"med", t.Med}, {"min", t.Min}, {"p90", t.P90}, {"p95", t.P95}, {"p99", t.P99}, {"value", t.Avg}} {
		enc.AddField(st.name, floatValue(ms(st.d)))
	}
}

// endpointLine starts a line of an endpoint's measurement with its tags,
// which the encoder wants in lexical order.
func endpointLine(enc *lineprotocol.Encoder, measurement string, e *EndpointFrame, status, runID string) {
	enc.StartLine(measurement)
	addTag(enc, "endpoint", e.Endpoint)
	addEndpointTags(enc, e, status, runID)
}

// addEndpointTags adds the tags after "endpoint" (and "kind"), in order.
func addEndpointTags(enc *lineprotocol.Encoder, e *EndpointFrame, status, runID string) {
	addTag(enc, "method", e.Method)
	addTag(enc, "name", e.Endpoint)
	addTag(enc, "scenario", e.Scenario)
	addTag(enc, "status", status)
	addTag(enc, "testid", runID)
}

// addTag adds a tag unless its value is empty, which line protocol cannot
// carry (to InfluxDB an absent tag is the empty one).
func addTag(enc *lineprotocol.Encoder, key, value string) {
	if value != "" {
		enc.AddTag(key, value)
	}
}

// floatValue is a float field; the figures written are always finite.
func floatValue(v float64) lineprotocol.Value {
	f, _ := lineprotocol.FloatValue(v)
	return f
}

// ms is a duration in milliseconds, k6's unit for trends in InfluxDB.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
