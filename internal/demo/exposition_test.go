package demo

import (
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// exposition is a parsed /metrics answer.
type exposition struct {
	mfs map[string]*dto.MetricFamily
}

// value returns the type and value of the sample of a family whose labels
// include the given name/value pairs; a summary's value is its count.
func (e *exposition) value(name string, labels ...string) (typ string, v float64, ok bool) {
	mf, found := e.mfs[name]
	if !found {
		return "", 0, false
	}
	for _, m := range mf.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.GetCounter() != nil:
			v = m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			v = m.GetGauge().GetValue()
		case m.GetSummary() != nil:
			v = float64(m.GetSummary().GetSampleCount())
		}
		return mf.GetType().String(), v, true
	}
	return mf.GetType().String(), 0, false
}

// quantiles counts the quantiles of a summary's first sample.
func (e *exposition) quantiles(name string) int {
	mf, ok := e.mfs[name]
	if !ok || len(mf.GetMetric()) == 0 {
		return 0
	}
	return len(mf.GetMetric()[0].GetSummary().GetQuantile())
}

func hasLabels(m *dto.Metric, labels []string) bool {
	for i := 0; i+1 < len(labels); i += 2 {
		found := false
		for _, lp := range m.GetLabel() {
			if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func labelText(labels []string) string {
	if len(labels) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(labels[i] + "=" + labels[i+1])
	}
	b.WriteByte('}')
	return b.String()
}
