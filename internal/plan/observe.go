package plan

import (
	"regexp"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// Defaults and bounds of the observe section.
const (
	DefaultObserveInterval = 5 * time.Second // scrape interval when the test sets none
	MinObserveInterval     = time.Second     // points are aligned to the run's seconds, so a shorter interval adds nothing
)

// ObservePresets returns the preset names a target may use; internal/scrape
// defines what each keeps.
func ObservePresets() []string {
	return []string{"spring", "node", "postgres", "mysql", "redis", "go", PresetKubeStateMetrics, PresetCAdvisor}
}

// The Kubernetes presets, which read one cluster-wide endpoint and so need
// the target's kube section to keep only the workload under test.
const (
	PresetKubeStateMetrics = "kube-state-metrics"
	PresetCAdvisor         = "cadvisor"
)

// KubePreset reports whether a preset reads a Kubernetes endpoint and
// selects by the target's kube section.
func KubePreset(name string) bool { return name == PresetKubeStateMetrics || name == PresetCAdvisor }

// KubeSelect is the workload a Kubernetes preset keeps: the objects of one
// namespace, one deployment and its HPA, and the pods named after it.
type KubeSelect struct {
	Namespace  string // required
	Deployment string // "" for every deployment of the namespace
	HPA        string // the HorizontalPodAutoscaler's name; default the deployment's
	Pods       string // the pods' name prefix; default "<deployment>-", "" for every pod of the namespace
}

// Observe is the test's observe section: Prometheus endpoints of the system
// under test, scraped during the run so its view sits beside the client's.
type Observe struct {
	Interval time.Duration   // the section's default scrape interval
	Targets  []ObserveTarget // in the order written; empty when the test observes nothing
	Traces   *ObserveTraces  // the OTLP receiver; nil for none
}

// ObserveTarget is one endpoint to scrape.
type ObserveTarget struct {
	Name     string         // unique in the test; the target=<name> label of its series
	URL      string         // http:// or https://, the full path of the exposition
	Preset   string         // one of ObservePresets, or "" for none
	Labels   []series.Label // added to every series of the target, sorted by name; never "target"
	Interval time.Duration  // this target's interval: its own or the section's
	Series   []Selector     // chosen beyond the preset; with no preset and no selectors every series is kept
	Kube     *KubeSelect    // the workload a Kubernetes preset keeps; set exactly when the preset is one
}

// KeepsAll reports whether the target keeps every series it exposes: it
// names neither a preset nor any series.
func (t *ObserveTarget) KeepsAll() bool { return t.Preset == "" && len(t.Series) == 0 }

// MatchOp is how a matcher compares a label's value.
type MatchOp uint8

// The comparisons of a label matcher, as in PromQL.
const (
	MatchEqual     MatchOp = iota // =
	MatchNotEqual                 // !=
	MatchRegexp                   // =~ (the whole value must match)
	MatchNotRegexp                // !~
)

// String returns the operator as written.
func (op MatchOp) String() string {
	switch op {
	case MatchNotEqual:
		return "!="
	case MatchRegexp:
		return "=~"
	case MatchNotRegexp:
		return "!~"
	}
	return "="
}

// NameLabel is the label a matcher uses to test the metric's name.
const NameLabel = "__name__"

// Matcher tests one label of a series; an absent label reads as "".
type Matcher struct {
	Label string
	Op    MatchOp
	Value string
	re    *regexp.Regexp // anchored; set for MatchRegexp and MatchNotRegexp
}

// Matches reports whether a label value satisfies the matcher.
func (m *Matcher) Matches(value string) bool {
	switch m.Op {
	case MatchNotEqual:
		return value != m.Value
	case MatchRegexp:
		return m.re.MatchString(value)
	case MatchNotRegexp:
		return !m.re.MatchString(value)
	}
	return value == m.Value
}

// Selector chooses series by name and labels, written like a PromQL
// instant-vector selector: `name`, `name{l="v"}` or `{__name__=~"re"}`.
type Selector struct {
	Text     string    // as written
	Matchers []Matcher // a name written before { is a __name__ equality matcher here
}

// NameMatchers returns the matchers on the metric's name.
func (s *Selector) NameMatchers() []Matcher {
	var out []Matcher
	for _, m := range s.Matchers {
		if m.Label == NameLabel {
			out = append(out, m)
		}
	}
	return out
}

// MatchesName reports whether every name matcher accepts name.
func (s *Selector) MatchesName(name string) bool {
	for i := range s.Matchers {
		if m := &s.Matchers[i]; m.Label == NameLabel && !m.Matches(name) {
			return false
		}
	}
	return true
}

// MatchesLabels reports whether every label matcher (not the name's)
// accepts the labels that value returns.
func (s *Selector) MatchesLabels(value func(label string) string) bool {
	for i := range s.Matchers {
		if m := &s.Matchers[i]; m.Label != NameLabel && !m.Matches(value(m.Label)) {
			return false
		}
	}
	return true
}

// HasLabel reports whether the selector tests label, which is how a
// selector asks for histogram buckets (le) or summary quantiles (quantile).
func (s *Selector) HasLabel(label string) bool {
	for _, m := range s.Matchers {
		if m.Label == label {
			return true
		}
	}
	return false
}

// ParseSelector parses a selector; its error gives the byte offset of the
// problem in s.
func ParseSelector(s string) (Selector, error) {
	return parseSelector(s)
}
