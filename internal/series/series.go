// Package series holds time series on a run's clock: what the target's
// Prometheus endpoints reported during the run, and what the load
// generator observed of itself. Scraping produces them, run.db keeps them,
// diagnosis and reports read them.
package series

import (
	"sort"
	"strings"
)

// Kind says how a series' values read.
type Kind uint8

// The kinds of series.
const (
	Gauge Kind = iota // a value as sampled, e.g. connections in use
	Rate              // a counter turned into its per-second rate of increase
)

// String returns the kind's name as stored in run.db.
func (k Kind) String() string {
	if k == Rate {
		return "rate"
	}
	return "gauge"
}

// Label is one name=value pair of a series.
type Label struct{ Name, Value string }

// Point is one value at a second of the run (seconds since its start).
type Point struct {
	Sec   int
	Value float64
}

// Series is one labelled metric over the run.
type Series struct {
	Name   string  // the metric name as exposed, e.g. hikaricp_connections_pending
	Labels []Label // sorted by name; include the scrape's own labels (role, target)
	Kind   Kind
	Points []Point // in second order
}

// Label returns the value of a label, or "".
func (s *Series) Label(name string) string {
	for _, l := range s.Labels {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// Key identifies a series: its name and labels, e.g. `up{role="db",target="pg"}`.
func (s *Series) Key() string {
	var b strings.Builder
	b.WriteString(s.Name)
	if len(s.Labels) > 0 {
		b.WriteByte('{')
		for i, l := range s.Labels {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(l.Name + `="` + l.Value + `"`)
		}
		b.WriteByte('}')
	}
	return b.String()
}

// SortLabels puts labels in name order, as Key and comparisons expect.
func SortLabels(ls []Label) {
	sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
}

// Set is all the series of a run.
type Set []*Series

// Find returns the series with the given name whose labels include every
// given pair (name, value, name, value, ...).
func (set Set) Find(name string, labels ...string) []*Series {
	var out []*Series
outer:
	for _, s := range set {
		if s.Name != name {
			continue
		}
		for i := 0; i+1 < len(labels); i += 2 {
			if s.Label(labels[i]) != labels[i+1] {
				continue outer
			}
		}
		out = append(out, s)
	}
	return out
}
