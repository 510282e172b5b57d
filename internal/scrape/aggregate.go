package scrape

import (
	"sort"
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// aggregates gathers one exposition's sums and counts of a preset.
type aggregates struct {
	sel    *selection
	conv   *converter
	groups map[string]*group // nil: a group the bounds refused
	counts []map[string]bool // per count rule: the distinct label values seen
}

// group is one output series of a sum rule.
type group struct {
	name     string
	labels   []series.Label
	kind     series.Kind
	sum      float64
	complete bool // every member had a value; a partial sum would mislead
}

// newAggregates returns empty aggregates for one conversion.
func newAggregates(sel *selection, conv *converter) *aggregates {
	return &aggregates{sel: sel, conv: conv, groups: map[string]*group{}, counts: make([]map[string]bool, len(sel.counts))}
}

// wants reports whether some sum or count rule selects the sample.
func (a *aggregates) wants(s *sample) bool {
	for i := range a.sel.sums {
		if matches(&a.sel.sums[i].sel, s) {
			return true
		}
	}
	for i := range a.sel.counts {
		if matches(&a.sel.counts[i].sel, s) {
			return true
		}
	}
	return false
}

// add adds a sample's value (ok false when it has none yet) to the sums
// and counts that select it.
func (a *aggregates) add(s *sample, v float64, ok bool) {
	for i := range a.sel.sums {
		r := &a.sel.sums[i]
		if !matches(&r.sel, s) {
			continue
		}
		var key strings.Builder
		key.WriteString(s.name)
		for _, l := range r.by {
			key.WriteString("\xff" + s.label(l))
		}
		g, seen := a.groups[key.String()]
		if !seen && !a.conv.admit("\x00"+key.String()) { // a sum's series counts in the bounds as a sample's does
			a.groups[key.String()] = nil // refused once, counted once
			continue
		}
		if g == nil && seen {
			continue
		}
		if !seen {
			g = &group{name: s.name, labels: a.conv.outLabels(byLabels(s, r.by)), kind: series.Gauge, complete: true}
			if s.rate {
				g.kind = series.Rate
			}
			a.groups[key.String()] = g
		}
		g.sum += v
		g.complete = g.complete && ok
	}
	for i := range a.sel.counts {
		r := &a.sel.counts[i]
		if !matches(&r.sel, s) {
			continue
		}
		if a.counts[i] == nil {
			a.counts[i] = map[string]bool{}
		}
		a.counts[i][s.label(r.label)] = true
	}
}

// byLabels returns the sample's labels among by that it has.
func byLabels(s *sample, by []string) []labelPair {
	var out []labelPair
	for _, name := range by {
		if v := s.label(name); v != "" {
			out = append(out, labelPair{name, v})
		}
	}
	return out
}

// series returns the complete sums and the counts, at second sec.
func (a *aggregates) series(sec int) series.Set {
	var out series.Set
	for _, g := range a.groups {
		if g != nil && g.complete {
			out = append(out, point(g.name, g.labels, g.kind, sec, g.sum))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	for i, seen := range a.counts {
		if seen != nil {
			out = append(out, a.conv.synthetic(a.sel.counts[i].as, sec, float64(len(seen))))
		}
	}
	return out
}
