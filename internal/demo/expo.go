package demo

import (
	"math"
	"strconv"
	"strings"
)

// expo writes the Prometheus text exposition format (version 0.0.4).
type expo struct {
	b []byte
}

// family starts a metric family with its HELP and TYPE lines.
func (e *expo) family(name, typ, help string) {
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

// sample writes one sample; labels alternate names and values.
func (e *expo) sample(name string, v float64, labels ...string) {
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

// single writes a family of one unlabelled sample.
func (e *expo) single(name, typ, help string, v float64) {
	e.family(name, typ, help)
	e.sample(name, v)
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
