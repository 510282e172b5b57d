package compare

import (
	"math"
	"testing"
)

// mirrored is the verdict comparing B with A gives when A with B gave v.
func mirrored(v string) string {
	switch v {
	case "better":
		return "worse"
	case "worse":
		return "better"
	}
	return v
}

// TestSwappedRunsGiveMirroredVerdicts: comparing B with A must say of every
// figure what comparing A with B says, mirrored, and its interval must be
// the mirror image (on logs for req/s and latencies). A fall was judged
// against the floor linearly and a rise on logs, so a server going from
// 30 ms to 10 ms was "no change" while 10 ms to 30 ms was a regression.
func TestSwappedRunsGiveMirroredVerdicts(t *testing.T) {
	load := ramp(100, 0, 12, 0)
	for _, tc := range []struct {
		name string
		b    synth
	}{
		{"identical", synth{load: load}},
		{"one stalled second in B", synth{load: load, stall: 5}},
		{"3× slower", synth{load: load, slow: 3}},
		{"+20 ms every request", synth{load: load, addMs: 20}},
		{"1.1× slower", synth{load: load, slow: 1.1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range uint64(20) {
				a := synth{seed: 7000 + 2*i, model: "arrival-rate", load: load}.input("a")
				sb := tc.b
				sb.seed, sb.model = 7001+2*i, "arrival-rate"
				b := sb.input("b")
				ab, err := Compare([]Input{a, b}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				ba, err := Compare([]Input{b, a}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				assertMirrored(t, i, ab, ba)
			}
		})
	}
}

func assertMirrored(t *testing.T, pair uint64, ab, ba *Report) {
	t.Helper()
	for r, row := range ab.Rows {
		for k, l := range row.Lines {
			x, y := l.Values[1], ba.Rows[r].Lines[k].Values[1]
			if x.Verdict != mirrored(y.Verdict) || x.Significant != y.Significant {
				t.Errorf("pair %d %s %s: A→B %s, B→A %s", pair, row.Name, l.Metric, describe(l.Metric, x), describe(l.Metric, y))
				continue
			}
			if x.CI == nil || y.CI == nil || l.Metric.isRatio() {
				continue
			}
			lo, hi := math.Log1p(x.CIPct.Lo/100), math.Log1p(x.CIPct.Hi/100)
			rlo, rhi := -math.Log1p(y.CIPct.Hi/100), -math.Log1p(y.CIPct.Lo/100)
			if math.Abs(lo-rlo) > 0.02 || math.Abs(hi-rhi) > 0.02 {
				t.Errorf("pair %d %s %s: A→B [%+.2f%%, %+.2f%%] is not B→A [%+.2f%%, %+.2f%%] mirrored",
					pair, row.Name, l.Metric, x.CIPct.Lo, x.CIPct.Hi, y.CIPct.Lo, y.CIPct.Hi)
			}
		}
	}
}
