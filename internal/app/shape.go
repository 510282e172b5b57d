package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// The meta keys of a run's history: its labels and its load shape.
const (
	tagsKey  = "tags"
	shapeKey = "load_shape"
)

// loadShape writes the load a plan offers in words, each scenario's model,
// start and stages: two runs of one test are one history series only when
// these words are the same (the fingerprint is their hash).
func loadShape(p *plan.Plan, seg plan.Segment) string {
	parts := make([]string, 0, len(p.Scenarios)+1)
	for i := range p.Scenarios {
		s := p.Scenarios[i]
		parts = append(parts, s.Name+": "+scenarioShape(s, p.Layout.Scenarios[i].Model))
	}
	if !seg.IsWhole() && seg != (plan.Segment{}) {
		parts = append(parts, "segment "+seg.String())
	}
	return strings.Join(parts, "; ")
}

func scenarioShape(s *plan.Scenario, model string) string {
	l := &s.Load
	var b strings.Builder
	b.WriteString(model)
	if s.StartTime > 0 {
		fmt.Fprintf(&b, " after %s", units.DurationLiteral(s.StartTime))
	}
	switch l.Model {
	case plan.Iterations:
		fmt.Fprintf(&b, " %s by %s within %s", units.Count(l.Count), units.CountOf(int64(l.VUCount), "VU", "VUs"), units.DurationLiteral(l.MaxDuration))
		return b.String()
	case plan.ArrivalRate:
		fmt.Fprintf(&b, " from %s/s", units.Number(l.StartRate))
	default:
		fmt.Fprintf(&b, " from %s", units.CountOf(int64(l.StartVUs), "VU", "VUs"))
	}
	for _, st := range l.Stages {
		target := units.Number(st.Target) + "/s"
		if l.Model == plan.VUs {
			target = units.CountOf(int64(st.Target), "VU", "VUs")
		}
		fmt.Fprintf(&b, ", %s over %s", target, units.DurationLiteral(st.Duration))
	}
	return b.String()
}

// layoutShape is the shape of a run recorded before runs kept theirs: its
// scenarios and their models, which is all run.db says of its load.
func layoutShape(l sample.Layout) string {
	parts := make([]string, len(l.Scenarios))
	for i, s := range l.Scenarios {
		parts[i] = s.Name + ": " + s.Model
	}
	return strings.Join(parts, "; ") + " (load not recorded)"
}

func encodeTags(tags map[string]string) string {
	if len(tags) == 0 {
		return ""
	}
	b, _ := json.Marshal(tags) // a map of strings always encodes
	return string(b)
}

// RunTags returns a stored run's labels (run --tag); none for a run
// recorded without them.
func RunTags(meta store.Meta) (map[string]string, error) { return decodeTags(meta.Extra[tagsKey]) }

func decodeTags(s string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	var tags map[string]string
	if err := json.Unmarshal([]byte(s), &tags); err != nil {
		return nil, fmt.Errorf("the run's tags: %w", err)
	}
	return tags, nil
}
