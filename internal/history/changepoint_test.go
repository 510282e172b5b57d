package history

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisy returns n values around level with relative noise sd, seeded.
func noisy(r *rand.Rand, n int, level, sd float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = level * math.Exp(sd*r.NormFloat64())
	}
	return xs
}

func TestEDivisiveFindsTheStep(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		want int
	}{
		{"step up at 5", []float64{1, 1, 1, 1, 1, 3, 3, 3, 3}, 5},
		{"step down at 3", []float64{9, 9, 9, 2, 2, 2, 2, 2, 2, 2}, 3},
		{"too short", []float64{1, 2, 3}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := EDivisive(tc.xs, 3); got != tc.want {
				t.Errorf("EDivisive = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	flat := noisy(r, 40, 100, 0.03)
	step := append(noisy(r, 20, 100, 0.03), noisy(r, 10, 130, 0.03)...)
	two := append(append(noisy(r, 15, 100, 0.02), noisy(r, 15, 60, 0.02)...), noisy(r, 15, 90, 0.02)...)
	outlier := noisy(r, 30, 100, 0.02)
	outlier[14] = 300
	twoSlow := noisy(r, 30, 100, 0.02) // a noisy neighbour on two of the last three runs
	twoSlow[27], twoSlow[28] = 150, 160
	for _, tc := range []struct {
		name     string
		xs       []float64
		relative bool
		want     []int // the runs that start a new level
	}{
		{"flat", flat, true, nil},
		{"one step of +30%", step, true, []int{20}},
		{"down then up", two, true, []int{15, 30}},
		{"one outlier is no level", outlier, true, nil},
		{"two outliers among the last three runs are no level", twoSlow, true, nil},
		{"errors from 0 to 5%", []float64{0, 0, 0, 0, 0, 0, 0.05, 0.05, 0.05, 0.05}, false, []int{6}},
		{"missing runs are skipped", []float64{1, math.NaN(), 1, 1, 1, 2, 2, math.NaN(), 2, 2}, true, []int{5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DefaultMethod.Detect(tc.xs, tc.relative)
			if len(got) != len(tc.want) {
				t.Fatalf("found %d change points %+v, want at %v", len(got), got, tc.want)
			}
			for i, s := range got {
				if s.At != tc.want[i] {
					t.Errorf("change %d at %d, want %d", i, s.At, tc.want[i])
				}
				if s.Lo > s.Change || s.Change > s.Hi {
					t.Errorf("change %d: %g outside its interval [%g, %g]", i, s.Change, s.Lo, s.Hi)
				}
			}
		})
	}
}

// TestLevel checks the t-test's level is shared over the segment's splits
// and the series examined together (Bonferroni), half of it for the splits
// whose right side runs to the end and half for those with an end (bumps).
func TestLevel(t *testing.T) {
	m := DefaultMethod
	for _, tc := range []struct {
		family, runs int
		want, bump   float64
	}{
		{1, 6, 0.025, 0.025},                               // one split
		{1, 100, 0.025 / 95, 0.025 / (94 * 95 / 2)},        // 100 runs, 3 a side: splits at 3…97
		{10, 100, 0.025 / 950, 0.025 / (10 * 94 * 95 / 2)}, // a test of 2 endpoints × 5 figures
		{0, 23, 0.025 / 18, 0.025 / (17 * 18 / 2)},         // a family below 1 is one
		{10, 2, 0.025 / 10, 0.025 / 10},                    // too short to split: the level is never used, but defined
	} {
		if got := m.Among(tc.family).Level(tc.runs); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("family %d, %d runs: level %g, want %g", tc.family, tc.runs, got, tc.want)
		}
		if got := m.Among(tc.family).bumpLevel(tc.runs); math.Abs(got-tc.bump) > 1e-15 {
			t.Errorf("family %d, %d runs: a bump's level %g, want %g", tc.family, tc.runs, got, tc.bump)
		}
	}
	if got := (Method{FixedLevel: 0.001, MinRuns: 3}).Level(100); got != 0.001 {
		t.Errorf("a fixed level gave %g, want 0.001", got)
	}
}

func TestDetectMeasuresTheStep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := append(noisy(r, 20, 200, 0.02), noisy(r, 20, 262, 0.02)...) // +31 %
	got := DefaultMethod.Detect(xs, true)
	if len(got) != 1 {
		t.Fatalf("found %+v, want one change", got)
	}
	if s := got[0]; s.Lo > 0.31 || s.Hi < 0.31 || s.Hi-s.Lo > 0.05 {
		t.Errorf("step %+.3f [%+.3f, %+.3f], want an interval around +0.31 narrower than 5 points", s.Change, s.Lo, s.Hi)
	}
}

func TestParseTags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    string
		wantErr bool
	}{
		{[]string{"commit=a1b2", "fix=pool 10→50"}, "commit=a1b2 fix=pool 10→50", false},
		{[]string{"empty="}, "empty=", false},
		{[]string{"nokey"}, "", true},
		{[]string{"=v"}, "", true},
		{[]string{"a b=c"}, "", true},
		{[]string{"a=1", "a=2"}, "", true},
	} {
		got, err := ParseTags(tc.args)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseTags(%q) error %v, want error %v", tc.args, err, tc.wantErr)
			continue
		}
		if err == nil && TagText(got) != tc.want {
			t.Errorf("ParseTags(%q) = %q, want %q", tc.args, TagText(got), tc.want)
		}
	}
}
