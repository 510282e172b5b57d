package report

import (
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// groupsJSON lists each flow group's group_duration for summary.json's
// loadlens section; nil when the test has no groups.
func groupsJSON(r *metrics.Run) []map[string]any {
	var out []map[string]any
	for i, g := range r.Layout.Groups {
		if i >= len(r.Groups) {
			break
		}
		out = append(out, map[string]any{"scenario": r.Layout.Scenarios[g.Scenario].Name, "name": g.Name, "duration": trend(r.Groups[i].Duration)})
	}
	return out
}

// allGroups merges every group's durations, as k6's group_duration metric
// is; nil when the test has no groups.
func allGroups(r *metrics.Run) *metrics.Hist {
	if len(r.Groups) == 0 {
		return nil
	}
	h := metrics.NewHist()
	for _, g := range r.Groups {
		if g.Duration != nil {
			h.Merge(g.Duration)
		}
	}
	return h
}

// writeGroups prints a table of the flow groups' durations, when the test has groups.
func writeGroups(sb *strings.Builder, in *Input) {
	r := in.Run
	if len(r.Layout.Groups) == 0 || len(r.Groups) != len(r.Layout.Groups) {
		return
	}
	rows := [][]string{{"GROUP", "RUNS", "MIN", "AVG", "P50", "P90", "P95", "P99", "MAX"}}
	for i, g := range r.Layout.Groups {
		name := g.Name
		if len(r.Layout.Scenarios) > 1 {
			name = r.Layout.Scenarios[g.Scenario].Name + " · " + name
		}
		h := r.Groups[i].Duration
		rows = append(rows, append([]string{name, units.Count(h.Count())}, groupLatencies(h)...))
	}
	table(sb, "  ", "mrrrrrrrr", rows)
	sb.WriteString("\n")
}

// groupLatencies are a group's figures for its row: "-" when it never ran.
func groupLatencies(h *metrics.Hist) []string {
	if h.Count() == 0 {
		return []string{"-", "-", "-", "-", "-", "-", "-"}
	}
	var out []string
	for _, d := range []time.Duration{h.Min(), h.Mean(), h.Quantile(50), h.Quantile(90), h.Quantile(95), h.Quantile(99), h.Max()} {
		out = append(out, units.Duration(d))
	}
	return out
}
