// Package promtext writes the Prometheus text exposition format, for the
// servers loadlens runs itself (the demo shop, the mock server).
package promtext

import (
	"math"
	"strconv"
	"strings"
)

// ContentType is the Content-Type of the text exposition format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Writer writes the Prometheus text exposition format (version 0.0.4).
type Writer struct {
	b []byte
}

// NewWriter returns a Writer whose buffer starts with room for size bytes.
func NewWriter(size int) *Writer { return &Writer{b: make([]byte, 0, size)} }

// Bytes returns what was written.
func (e *Writer) Bytes() []byte { return e.b }

// Family starts a metric family with its HELP and TYPE lines.
func (e *Writer) Family(name, typ, help string) {
	e.b = append(e.b, "# HELP "...)
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.b = append(e.b, strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(help)...)
	e.b = append(e.b, "\n# TYPE "...)
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.b = append(e.b, typ...)
	e.b = append(e.b, '\n')
}

// Sample writes one sample; labels alternate names and values.
func (e *Writer) Sample(name string, v float64, labels ...string) {
	e.b = append(e.b, name...)
	if len(labels) > 0 {
		e.b = append(e.b, '{')
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = append(e.b, labels[i]...)
			e.b = append(e.b, `="`...)
			e.b = appendLabelValue(e.b, labels[i+1])
			e.b = append(e.b, '"')
		}
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, ' ')
	e.b = appendValue(e.b, v)
	e.b = append(e.b, '\n')
}

// Single writes a family of one unlabelled sample.
func (e *Writer) Single(name, typ, help string, v float64) {
	e.Family(name, typ, help)
	e.Sample(name, v)
}

// appendLabelValue escapes a label value: backslash, quote and newline.
func appendLabelValue(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			b = append(b, `\\`...)
		case '"':
			b = append(b, `\"`...)
		case '\n':
			b = append(b, `\n`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendValue writes a float the way Prometheus reads it.
func appendValue(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	case math.IsNaN(v):
		return append(b, "NaN"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// Histogram writes one histogram's series: a _bucket per upper bound in
// bounds (cumulative counts, counts[i] for bounds[i]) and +Inf, then _sum
// and _count; labels alternate names and values. The family's HELP and TYPE
// come from Family(name, "histogram", ...).
func (e *Writer) Histogram(name string, bounds []float64, cumulative []uint64, sum float64, count uint64, labels ...string) {
	withLe := make([]string, len(labels)+2)
	copy(withLe, labels)
	withLe[len(labels)] = "le"
	for i, b := range bounds {
		withLe[len(labels)+1] = string(appendValue(nil, b))
		e.Sample(name+"_bucket", float64(cumulative[i]), withLe...)
	}
	withLe[len(labels)+1] = "+Inf"
	e.Sample(name+"_bucket", float64(count), withLe...)
	e.Sample(name+"_sum", sum, labels...)
	e.Sample(name+"_count", float64(count), labels...)
}
