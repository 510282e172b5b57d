package scrape

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/plan"
)

// selection decides which samples of an exposition a target keeps, and
// which it folds into sums and counts.
type selection struct {
	keepAll bool            // no preset and no series: every sample but buckets and quantiles
	raw     []plan.Selector // samples kept as exposed
	sums    []sumRule
	counts  []countRule
	values  []plan.Selector // counters kept as their value, not their rate
	rates   []plan.Selector // untyped counters kept as their rate
}

// sumRule sums the values of the samples it selects over every label but
// by, e.g. node CPU time over CPUs, per mode. Counters are turned into
// rates first, so a reset of one CPU's counter does not upset the sum.
type sumRule struct {
	sel plan.Selector
	by  []string
}

// countRule counts the distinct values of label among the samples it
// selects, into a gauge named as, e.g. the CPUs of node_cpu_seconds_total.
type countRule struct {
	sel   plan.Selector
	label string
	as    string
}

// newSelection compiles a target's preset and series.
func newSelection(cfg *Target) (*selection, error) {
	s := &selection{keepAll: cfg.KeepsAll()}
	if cfg.Preset != "" {
		specs, ok := presetSpecs(cfg.Preset)
		if !ok {
			return nil, fmt.Errorf("unknown preset %q", cfg.Preset)
		}
		for _, spec := range specs {
			text := scoped(spec.sel, spec.scope, cfg.Kube)
			sel, err := plan.ParseSelector(text)
			if err != nil {
				return nil, fmt.Errorf("preset %s: selector %s: %w", cfg.Preset, text, err)
			}
			if spec.count {
				s.values = append(s.values, sel)
			}
			if spec.rate {
				s.rates = append(s.rates, sel)
			}
			switch {
			case spec.countLabel != "":
				s.counts = append(s.counts, countRule{sel: sel, label: spec.countLabel, as: spec.as})
			case spec.sumBy != nil:
				s.sums = append(s.sums, sumRule{sel: sel, by: spec.sumBy})
			default:
				s.raw = append(s.raw, sel)
			}
		}
	}
	s.raw = append(s.raw, cfg.Series...)
	return s, nil
}

// sample is one line of an exposition: a counter, gauge or untyped value,
// a summary's or histogram's _sum or _count, a bucket or a quantile.
type sample struct {
	family  string // the family's name, e.g. jvm_gc_pause_seconds
	name    string // the sample's name, e.g. jvm_gc_pause_seconds_count
	labels  []labelPair
	detail  string // "le" for a bucket, "quantile" for a quantile, else ""
	value   float64
	rate    bool // cumulative: kept as its per-second rate
	untyped bool // exposed untyped: a counter or a gauge, by name only
}

// labelPair is an exposed label.
type labelPair struct{ name, value string }

// label returns the value of an exposed label, or "".
func (s *sample) label(name string) string {
	for _, l := range s.labels {
		if l.name == name {
			return l.value
		}
	}
	return ""
}

// matches reports whether sel selects sample s. A summary's or histogram's
// _sum and _count are selected by their own names or the family's; buckets
// and quantiles only when asked for: by a matcher on le or quantile, or by
// a name (like h_bucket) that matches them and not the family.
func matches(sel *plan.Selector, s *sample) bool {
	if !sel.MatchesLabels(s.label) {
		return false
	}
	own, fam := sel.MatchesName(s.name), s.name != s.family && sel.MatchesName(s.family)
	if s.detail == "" {
		return own || fam
	}
	if sel.HasLabel(s.detail) {
		return own || fam
	}
	return own && !fam && s.name != s.family
}

// keepsValue reports whether a cumulative sample is kept as its value:
// a preset's counter of rare, whole events.
func (sel *selection) keepsValue(s *sample) bool {
	for i := range sel.values {
		if matches(&sel.values[i], s) {
			return true
		}
	}
	return false
}

// takesRate reports whether an untyped sample is a preset's counter, kept
// as its per-second rate.
func (sel *selection) takesRate(s *sample) bool {
	for i := range sel.rates {
		if matches(&sel.rates[i], s) {
			return true
		}
	}
	return false
}

// keepRaw reports whether the sample is kept as exposed.
func (sel *selection) keepRaw(s *sample) bool {
	if sel.keepAll {
		return s.detail == ""
	}
	for i := range sel.raw {
		if matches(&sel.raw[i], s) {
			return true
		}
	}
	return false
}
