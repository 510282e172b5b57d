package report

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/compare"
)

// TestCompareVerdicts: the verdict line says which significant changes made
// a run better or worse than the baseline, and leaves out rates that only
// followed a different load.
func TestCompareVerdicts(t *testing.T) {
	pct := func(p float64) *float64 { return &p }
	val := func(verdict string, p float64) compare.Value {
		return compare.Value{Has: true, Delta: pct(p), DeltaPct: pct(p), Verdict: verdict}
	}
	row := func(tps, p95 compare.Value) compare.Row {
		base := compare.Value{Has: true}
		return compare.Row{Name: "all endpoints", Lines: []compare.Line{
			{Metric: compare.TPS, Values: []compare.Value{base, tps}},
			{Metric: compare.P95, Values: []compare.Value{base, p95}},
		}}
	}
	for _, tc := range []struct {
		name       string
		row        compare.Row
		comparable bool
		want, not  string
	}{
		{"faster", row(val("~", 0.1), val("better", -33.9)), true, "B is better than A: p95 -33.9%; nothing significantly worse", "worse than"},
		{"slower", row(val("~", 0.1), val("worse", 30)), true, "B is worse than A: p95 +30.0%", "better than"},
		{"unchanged", row(val("~", 0.1), val("~", 2)), true, "B: no significant change from A", "better"},
		{"both ways", row(val("better", 20), val("worse", 15)), true, "B against A: better req/s +20.0%; worse p95 +15.0%", "is worse"},
		{"more load: its rate is not a gain", row(val("better", 60), val("~", 1)), false, "B: no significant change from A (all endpoints); not at the baseline's load", "req/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &compare.Report{Groups: []compare.GroupInfo{{Name: "A", Comparable: true}, {Name: "B", Comparable: tc.comparable}}, Rows: []compare.Row{tc.row}}
			got := strings.Join(compareVerdicts(r), "\n")
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
				t.Fatalf("verdict %q: want %q, not %q", got, tc.want, tc.not)
			}
		})
	}
}
