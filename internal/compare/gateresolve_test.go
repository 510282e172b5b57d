package compare

import (
	"strings"
	"testing"
)

// A latency gate passes only what its runs resolve: a change within the
// limit whose interval reaches more than three limits past it is not
// judged (a 1.5× slower JVM service read p95 -2.8% [-29.1%, +103%] and
// passed 'p(95) +10%'); a narrower one passes, a wide one entirely within
// the limit passes, and gates on other figures or a limit of 0 are as
// before. So is a change past the limit whose interval reaches back more
// than three limits within it.
func TestAnUnresolvedPassIsNotJudged(t *testing.T) {
	for _, tc := range []struct {
		gate           string
		metric         Metric
		point, lo, hi  float64 // percent of the baseline
		notJudged      bool
		reasonContains string
	}{
		{"p(95) +10%", P95, -2.8, -29.1, 103, true, "reaches +103%: runs this noisy miss a change of three times the limit 1 time in 10"},
		{"p(95) +10%", P95, 9.7, -3.9, 28.2, false, "is within +10%"},
		{"p(95) +10%", P95, -40, -80, 5, false, "is within +10%"},
		{"p(99) +10%", P99, 0, -45, 46, true, "about 90 compared seconds a run"},
		{"p(50) -5%", P50, 1, -30, 20, true, "reaches -30.0%"},
		{"p(95) +0%", P95, -1, -50, 60, false, "within +0%"},
		{"req/s -10%", TPS, 0, -50, 50, false, "within -10%"},
		// past the limit, its interval reaching back within it (s35 trial: p99 9.51 → 28.1 ms)
		{"p(99) +10%", P99, 196, -23.6, 818, true, "reaches back to -23.6%: runs this noisy miss a change"},
		{"p(95) +10%", P95, 25, -2, 60, false, "not significantly past it"},
		{"p(50) -5%", P50, -40, -70, 10, true, "reaches back to +10.0%"},
		{"req/s -10%", TPS, -40, -80, 50, false, "not significantly past it"},
	} {
		t.Run(tc.gate+" "+ScaleText(tc.metric, tc.point), func(t *testing.T) {
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			base := Value{Has: true, Value: 10, Samples: 30, Runs: 1, Requests: 3000}
			delta, pct := tc.point/10, tc.point
			v := Value{Has: true, Value: 10 + delta, Samples: 30, Runs: 1, Requests: 3000, Delta: &delta, DeltaPct: &pct,
				CI: &Interval{Lo: tc.lo / 10, Hi: tc.hi / 10}, CIPct: &Interval{Lo: tc.lo, Hi: tc.hi}, MinEffect: 1}
			failed, notJudged, reason := judge(g, base, v, hostLag{})
			if failed || notJudged != tc.notJudged || !strings.Contains(reason, tc.reasonContains) {
				t.Errorf("failed %v, not judged %v (want %v): %s\nwant it to say %q", failed, notJudged, tc.notJudged, reason, tc.reasonContains)
			}
		})
	}
}
