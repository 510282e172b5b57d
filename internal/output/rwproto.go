package output

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The remote write 1.0 messages loadlens sends (prometheus/prompb's
// remote.proto and types.proto), with the fields it sets, encoded by hand:
// importing prompb linked all of github.com/prometheus/prometheus's model
// and gogo/protobuf in (1.5 MB of binary) for five small messages. The
// encoding is byte for byte prompb's (TestRWProtoMatchesPrompb).

// rwLabel is prompb.Label.
type rwLabel struct{ Name, Value string }

// rwSample is prompb.Sample.
type rwSample struct {
	Value     float64
	Timestamp int64 // milliseconds
}

// rwSpan is prompb.BucketSpan.
type rwSpan struct {
	Offset int32
	Length uint32
}

// rwHistogram is prompb.Histogram with integer counts and positive
// buckets only, the kind a latency histogram has.
type rwHistogram struct {
	Count          uint64
	Sum            float64
	Schema         int32
	ZeroCount      uint64
	PositiveSpans  []rwSpan
	PositiveDeltas []int64
	Timestamp      int64 // milliseconds
}

// rwSeries is prompb.TimeSeries.
type rwSeries struct {
	Labels     []rwLabel
	Samples    []rwSample
	Histograms []rwHistogram
}

// marshalWriteRequest encodes a WriteRequest of ts (field 1, timeseries),
// sizing every message first so that the body is one allocation.
func marshalWriteRequest(ts []rwSeries) []byte {
	n := 0
	for i := range ts {
		n += fieldSize(1, ts[i].size())
	}
	b := make([]byte, 0, n)
	for i := range ts {
		b = appendMessage(b, 1, ts[i].size(), ts[i].append)
	}
	return b
}

// appendMessage appends field num holding a message of n bytes that msg
// appends.
func appendMessage(b []byte, num protowire.Number, n int, msg func([]byte) []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(n))
	return msg(b)
}

// fieldSize is the size of a length-delimited field of n bytes.
func fieldSize(num protowire.Number, n int) int {
	return protowire.SizeTag(num) + protowire.SizeBytes(n)
}

func (s *rwSeries) size() int {
	n := 0
	for _, l := range s.Labels {
		n += fieldSize(1, l.size())
	}
	for _, x := range s.Samples {
		n += fieldSize(2, x.size())
	}
	for i := range s.Histograms {
		n += fieldSize(4, s.Histograms[i].size())
	}
	return n
}

func (s *rwSeries) append(b []byte) []byte {
	for _, l := range s.Labels {
		b = appendMessage(b, 1, l.size(), l.append)
	}
	for _, x := range s.Samples {
		b = appendMessage(b, 2, x.size(), x.append)
	}
	for i := range s.Histograms {
		b = appendMessage(b, 4, s.Histograms[i].size(), s.Histograms[i].append)
	}
	return b
}

func (l rwLabel) size() int { return stringSize(1, l.Name) + stringSize(2, l.Value) }

func (l rwLabel) append(b []byte) []byte {
	b = appendString(b, 1, l.Name)
	return appendString(b, 2, l.Value)
}

func (x rwSample) size() int { return doubleSize(1, x.Value) + varintSize(2, uint64(x.Timestamp)) }

func (x rwSample) append(b []byte) []byte {
	b = appendDouble(b, 1, x.Value)
	return appendVarint(b, 2, uint64(x.Timestamp))
}

func (s rwSpan) size() int {
	return varintSize(1, protowire.EncodeZigZag(int64(s.Offset))) + varintSize(2, uint64(s.Length))
}

func (s rwSpan) append(b []byte) []byte {
	b = appendVarint(b, 1, protowire.EncodeZigZag(int64(s.Offset)))
	return appendVarint(b, 2, uint64(s.Length))
}

// deltasSize is the size of the packed positive_deltas' contents.
func (h *rwHistogram) deltasSize() int {
	n := 0
	for _, d := range h.PositiveDeltas {
		n += protowire.SizeVarint(protowire.EncodeZigZag(d))
	}
	return n
}

func (h *rwHistogram) size() int {
	n := protowire.SizeTag(1) + protowire.SizeVarint(h.Count) + doubleSize(3, h.Sum) +
		varintSize(4, protowire.EncodeZigZag(int64(h.Schema))) + protowire.SizeTag(6) + protowire.SizeVarint(h.ZeroCount) +
		varintSize(15, uint64(h.Timestamp))
	for _, s := range h.PositiveSpans {
		n += fieldSize(11, s.size())
	}
	if len(h.PositiveDeltas) > 0 {
		n += fieldSize(12, h.deltasSize())
	}
	return n
}

// head writes the histogram's scalar fields before its buckets; the counts
// are oneofs, written even when 0.
func (h *rwHistogram) head(b []byte) []byte {
	b = protowire.AppendTag(b, 1, protowire.VarintType) // count_int
	b = protowire.AppendVarint(b, h.Count)
	b = appendDouble(b, 3, h.Sum)
	b = appendVarint(b, 4, protowire.EncodeZigZag(int64(h.Schema)))
	b = protowire.AppendTag(b, 6, protowire.VarintType) // zero_count_int
	return protowire.AppendVarint(b, h.ZeroCount)
}

func (h *rwHistogram) append(b []byte) []byte {
	b = h.head(b)
	for _, s := range h.PositiveSpans {
		b = appendMessage(b, 11, s.size(), s.append)
	}
	if len(h.PositiveDeltas) > 0 { // packed sint64
		b = protowire.AppendTag(b, 12, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(h.deltasSize()))
		for _, d := range h.PositiveDeltas {
			b = protowire.AppendVarint(b, protowire.EncodeZigZag(d))
		}
	}
	return appendVarint(b, 15, uint64(h.Timestamp))
}

// appendString, appendDouble and appendVarint write a proto3 scalar field,
// nothing when it holds its zero value (as prompb's generated code: -0
// and 0 alike).
func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendDouble(b []byte, num protowire.Number, v float64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(v))
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

// stringSize, doubleSize and varintSize are the sizes of those fields.
func stringSize(num protowire.Number, s string) int {
	if s == "" {
		return 0
	}
	return fieldSize(num, len(s))
}

func doubleSize(num protowire.Number, v float64) int {
	if v == 0 {
		return 0
	}
	return protowire.SizeTag(num) + protowire.SizeFixed64()
}

func varintSize(num protowire.Number, v uint64) int {
	if v == 0 {
		return 0
	}
	return protowire.SizeTag(num) + protowire.SizeVarint(v)
}
