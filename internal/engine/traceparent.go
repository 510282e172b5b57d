package engine

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"

	"github.com/loadlens/loadlens/internal/sample"
)

// TraceOptions is how requests carry W3C trace context: every request gets
// a traceparent with random ids, sampled for a share of them.
type TraceOptions struct {
	Sample     float64 // share of requests sent with the sampled flag, 0 to 1
	TraceState []byte  // a tracestate value sent beside traceparent; nil for none
	Baggage    []byte  // a baggage value sent beside traceparent; nil for none
}

// traceFields marks the trace context headers a step sets itself, which
// win over the engine's.
type traceFields struct {
	parent, state, baggage bool
	value                  bufSpan // where in lines the step's traceparent value is
}

// addTrace appends the trace context lines to the step's headers and
// records the trace id and sampled flag in s. A step's own traceparent wins:
// its trace id is recorded when it is a valid version-00 one.
func (h *stepHeaders) addTrace(rnd *rand.Rand, o *TraceOptions, s *sample.Request) {
	if h.tf.parent {
		s.Trace, s.Sampled = parseTraceparent(h.lines[h.tf.value.start:h.tf.value.end])
		return
	}
	hi, lo := rnd.Uint64(), rnd.Uint64()
	if hi|lo == 0 {
		lo = 1 // an all-zero trace id is invalid
	}
	span := rnd.Uint64() | 1 // nor may the span id be zero
	binary.BigEndian.PutUint64(s.Trace[:8], hi)
	binary.BigEndian.PutUint64(s.Trace[8:], lo)
	s.Sampled = o.Sample >= 1 || (o.Sample > 0 && rnd.Float64() < o.Sample)
	h.lines = append(h.lines, "traceparent: 00-"...)
	h.lines = hex.AppendEncode(h.lines, s.Trace[:])
	h.lines = append(h.lines, '-')
	var sp [8]byte
	binary.BigEndian.PutUint64(sp[:], span)
	h.lines = hex.AppendEncode(h.lines, sp[:])
	if s.Sampled {
		h.lines = append(h.lines, "-01\r\n"...)
	} else {
		h.lines = append(h.lines, "-00\r\n"...)
	}
	if o.TraceState != nil && !h.tf.state {
		h.lines = append(h.lines, "tracestate: "...)
		h.lines = append(h.lines, o.TraceState...)
		h.lines = append(h.lines, "\r\n"...)
	}
	if o.Baggage != nil && !h.tf.baggage {
		h.lines = append(h.lines, "baggage: "...)
		h.lines = append(h.lines, o.Baggage...)
		h.lines = append(h.lines, "\r\n"...)
	}
}

// parseTraceparent reads the trace id and sampled flag of a version-00
// traceparent value; an invalid one gives a zero id.
func parseTraceparent(v []byte) (id sample.TraceID, sampled bool) {
	// 00-<32 hex>-<16 hex>-<2 hex>
	if len(v) != 55 || v[0] != '0' || v[1] != '0' || v[2] != '-' || v[35] != '-' || v[52] != '-' {
		return sample.TraceID{}, false
	}
	if _, err := hex.Decode(id[:], v[3:35]); err != nil {
		return sample.TraceID{}, false
	}
	var flags [1]byte
	if _, err := hex.Decode(flags[:], v[53:55]); err != nil {
		return sample.TraceID{}, false
	}
	return id, flags[0]&1 == 1
}
