package compare

import (
	"math"
	"strings"
	"testing"
)

// hold100 is a run that ramps up for 10 s, holds 100 req/s for 100 s and
// ramps down for 5 s.
var hold100 = ramp(100, 10, 100, 5)

func line(t *testing.T, r *Report, row string, m Metric) Line {
	t.Helper()
	for _, rw := range r.Rows {
		if rw.Name == row {
			return rw.Lines[m]
		}
	}
	t.Fatalf("no row %q", row)
	return Line{}
}

// TestSameServerShowsNoSignificantChange compares two runs of one server.
// At alpha 0.05 any one pair of runs has a 1 in 20 chance per metric of a
// false alarm, so these seeds are one pair each; TestFalseAlarmRate is what
// checks that false alarms stay that rare.
func TestSameServerShowsNoSignificantChange(t *testing.T) {
	tests := []struct {
		name  string
		model string
		load  []float64
		seedA uint64
		seedB uint64
	}{
		{"open model", "arrival-rate", hold100, 1, 2},
		{"closed model", "vus", ramp(20, 10, 100, 5), 5, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := synth{seed: tc.seedA, model: tc.model, load: tc.load, errProb: 0.005}.input("before")
			b := synth{seed: tc.seedB, model: tc.model, load: tc.load, errProb: 0.005}.input("after")
			r, err := Compare([]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range r.Rows[0].Lines {
				v := l.Values[1]
				if v.P == nil || v.Significant {
					t.Errorf("%s: change %s, want ~", l.Metric, FormatChange(l.Metric, l.Values[0], v))
				}
				if got := FormatChange(l.Metric, l.Values[0], v); !strings.HasPrefix(got, "~") {
					t.Errorf("%s: shown as %q, want ~", l.Metric, got)
				}
			}
			if !r.Runs[1].Comparable {
				t.Errorf("same load judged not comparable: %+v", r.Runs[1])
			}
		})
	}
}

// TestFalseAlarmRate checks the test's calibration: runs of one server
// must show a significant change of each metric in about alpha (5 %) of
// comparisons.
func TestFalseAlarmRate(t *testing.T) {
	const pairs = 60
	for _, model := range []string{"arrival-rate", "vus"} {
		t.Run(model, func(t *testing.T) {
			var alarms [numMetrics]int
			for i := range uint64(pairs) {
				load := ramp(50, 5, 60, 3)
				a := synth{seed: 100 + 2*i, model: model, load: load, errProb: 0.01}.input("a")
				b := synth{seed: 101 + 2*i, model: model, load: load, errProb: 0.01}.input("b")
				r, err := Compare([]Input{a, b}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range r.Rows[0].Lines {
					if l.Values[1].Significant {
						alarms[l.Metric]++
					}
				}
			}
			for m, n := range alarms {
				if n > 9 { // 5 % of 60 is 3; 10 or more happens by chance with P < 0.2 %
					t.Errorf("%s: %d of %d comparisons of one server flagged a change", Metric(m), n, pairs)
				}
			}
		})
	}
}

func TestSlowerServerIsSignificantRegression(t *testing.T) {
	tests := []struct {
		name     string
		model    string
		load     []float64
		tpsFalls bool // a closed model's rate falls with latency
	}{
		{"open model", "arrival-rate", hold100, false},
		{"closed model", "vus", ramp(20, 10, 100, 5), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := synth{seed: 1, model: tc.model, load: tc.load}.input("before")
			b := synth{seed: 2, model: tc.model, load: tc.load, slow: 1.3}.input("slower")
			r, err := Compare([]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range r.Rows {
				v := row.Lines[P95].Values[1]
				if !v.Significant || v.DeltaPct == nil || *v.DeltaPct < 20 || *v.DeltaPct > 40 {
					t.Errorf("%s p95: %s, want a significant rise of about 30%%", row.Name, FormatChange(P95, row.Lines[P95].Values[0], v))
				}
			}
			tps := line(t, r, allEndpoints, TPS).Values[1]
			if tps.Significant != tc.tpsFalls {
				t.Errorf("req/s change significant = %v, want %v", tps.Significant, tc.tpsFalls)
			}
			if !r.Runs[1].Comparable {
				t.Errorf("same load judged not comparable: %+v", r.Runs[1])
			}
		})
	}
}

func TestComparedSecondsAreTheSteadyPartAtTheBaselinesLoad(t *testing.T) {
	var stairs []float64
	for _, level := range []float64{50, 100, 150} {
		stairs = append(stairs, ramp(level, 0, 40, 0)...)
	}
	tests := []struct {
		name        string
		load        []float64
		first, last int // bounds the compared seconds must lie within
		minSeconds  int
		comparable  bool
		note        string
	}{
		{"ramp and ramp-down left out", hold100, 10, 109, 95, true, ""},
		{"the staircase step at the baseline's load", stairs, 40, 79, 35, true, ""},
		{"a higher load cannot be compared fairly", ramp(150, 10, 100, 5), 10, 109, 95, false, "load 150.0 req/s vs the baseline's 100.0 req/s (+50.0%)"},
		{"a pure ramp has no steady part", ramp(100, 60, 0, 0), 0, 59, 60, false, "no steady part"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := synth{seed: 1, model: "arrival-rate", load: hold100}.input("base")
			other := synth{seed: 2, model: "arrival-rate", load: tc.load}.input("other")
			r, err := Compare([]Input{base, other}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if b := r.Runs[0]; b.First < 10 || b.Last > 109 || b.Seconds < 95 || math.Abs(b.Load-100) > 1 {
				t.Errorf("baseline part %+v, want the hold at 100 req/s", b)
			}
			o := r.Runs[1]
			if o.First < tc.first || o.Last > tc.last || o.Seconds < tc.minSeconds {
				t.Errorf("compared %d–%d (%d s), want within %d–%d and at least %d s", o.First, o.Last, o.Seconds, tc.first, tc.last, tc.minSeconds)
			}
			if o.Comparable != tc.comparable || !strings.Contains(o.Note, tc.note) {
				t.Errorf("comparable %v note %q, want %v and %q", o.Comparable, o.Note, tc.comparable, tc.note)
			}
		})
	}
}

func TestWithoutWindowFiguresAreWholeRun(t *testing.T) {
	a := synth{seed: 1, model: "arrival-rate", load: hold100}.input("a")
	b := synth{seed: 2, model: "arrival-rate", load: hold100}.input("b")
	a.Window, b.Window = nil, nil
	r, err := Compare([]Input{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs[0].Exact || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "whole-run") {
		t.Fatalf("exact %v, notes %q: want a note that percentiles are whole-run", r.Runs[0].Exact, r.Notes)
	}
	if got := line(t, r, allEndpoints, TPS).Values[0].Value; math.Abs(got-100) > 1 {
		t.Errorf("req/s over the steady part %v, want 100", got)
	}
}

func TestCompareRejectsBadInput(t *testing.T) {
	good := synth{seed: 1, model: "arrival-rate", load: hold100}.input("good")
	empty := synth{seed: 1, model: "arrival-rate"}.input("empty")
	tests := []struct {
		name string
		ins  []Input
		opts Options
		want string
	}{
		{"one run", []Input{good}, Options{}, "at least two runs"},
		{"empty run", []Input{good, empty}, Options{}, "run 2 (empty) recorded no seconds"},
		{"bad alpha", []Input{good, good}, Options{Alpha: 2}, "alpha 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compare(tc.ins, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestMannWhitney(t *testing.T) {
	seq := func(from, to float64) []float64 {
		var out []float64
		for v := from; v <= to; v++ {
			out = append(out, v)
		}
		return out
	}
	tests := []struct {
		name   string
		a, b   []float64
		p      float64 // -1: not tested
		within float64
	}{
		// U = 0, mean 50, variance 10·10/12·21 = 175: z = (50 - 0.5)/√175.
		{"fully separated", seq(1, 10), seq(11, 20), 0.00018267, 1e-7},
		{"identical", seq(1, 10), seq(1, 10), 1, 1e-12},
		{"all tied", []float64{5, 5, 5, 5, 5}, []float64{5, 5, 5, 5, 5, 5}, 1, 0},
		// Rank sum of a 29, U = 8, mean 18, four pairs of ties: variance
		// 36/12·(13 - 24/132), z = (10 - 0.5)/√variance.
		{"overlapping with ties", seq(1, 6), seq(3, 8), 0.12553027, 1e-7},
		{"too few", seq(1, 4), seq(1, 10), -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := MannWhitney(tc.a, tc.b)
			if tc.p < 0 {
				if ok {
					t.Fatalf("tested with %d and %d samples", len(tc.a), len(tc.b))
				}
				return
			}
			if !ok || math.Abs(p-tc.p) > tc.within {
				t.Fatalf("p = %v (ok %v), want %v ± %v", p, ok, tc.p, tc.within)
			}
		})
	}
}

func TestTwoProportions(t *testing.T) {
	tests := []struct {
		name                  string
		okA, nA, okB, nB      int64
		significant, testable bool
	}{
		{"same", 990, 1000, 990, 1000, false, true},
		{"1% vs 5% failing", 990, 1000, 950, 1000, true, true},
		{"all pass", 100, 100, 200, 200, false, true},
		{"no outcomes", 0, 0, 5, 5, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := TwoProportions(tc.okA, tc.nA, tc.okB, tc.nB)
			if ok != tc.testable || (ok && (p < 0.05) != tc.significant) {
				t.Fatalf("p = %v ok = %v, want significant %v testable %v", p, ok, tc.significant, tc.testable)
			}
		})
	}
}

func TestSteady(t *testing.T) {
	tests := []struct {
		name        string
		load        []float64
		first, last int
		throughput  float64
	}{
		{"ramp, hold, ramp-down", hold100, 10, 109, 100},
		{"constant", ramp(40, 0, 30, 0), 0, 29, 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run, _ := synth{seed: 1, model: "arrival-rate", load: tc.load}.build()
			part, x := Steady(run)
			if part.First < tc.first || part.Last > tc.last || part.Seconds < (tc.last-tc.first)*9/10 || math.Abs(x-tc.throughput) > 0.5 {
				t.Fatalf("steady part %d–%d (%d s) at %v req/s, want within %d–%d at %v", part.First, part.Last, part.Seconds, x, tc.first, tc.last, tc.throughput)
			}
		})
	}
}
