package diagnose

import (
	"math"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

func TestTheilSenIgnoresOutliers(t *testing.T) {
	cases := []struct {
		name         string
		ys           []float64
		wantA, wantB float64
	}{
		{"a line", []float64{1, 3, 5, 7, 9, 11}, 1, 2},
		{"a line with two wild points", []float64{1, 3, 500, 7, -80, 11}, 1, 2},
		{"flat", []float64{4, 4, 4, 4}, 4, 0},
	}
	for _, tc := range cases {
		xs := make([]float64, len(tc.ys))
		for i := range xs {
			xs[i] = float64(i)
		}
		a, b := theilSen(xs, tc.ys)
		if math.Abs(a-tc.wantA) > 1e-9 || math.Abs(b-tc.wantB) > 1e-9 {
			t.Errorf("%s: a=%v b=%v, want %v and %v", tc.name, a, b, tc.wantA, tc.wantB)
		}
	}
}

func TestKendallTau(t *testing.T) {
	up := []float64{1, 2, 3, 4, 5}
	cases := []struct {
		name string
		ys   []float64
		want float64
	}{
		{"rising", []float64{10, 20, 30, 40, 50}, 1},
		{"falling", []float64{5, 4, 3, 2, 1}, -1},
		{"one swap", []float64{1, 3, 2, 4, 5}, 0.8},
		{"flat", []float64{7, 7, 7, 7, 7}, 0},
	}
	for _, tc := range cases {
		if got := kendallTau(up, tc.ys); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: tau %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBucketMediansBoundsLongSeries(t *testing.T) {
	xs := make([]float64, 3600)
	for i := range xs {
		xs[i] = float64(i)
	}
	bx, by := bucketMedians(xs, xs, maxTrendPoints)
	if len(bx) > maxTrendPoints || len(bx) != len(by) {
		t.Fatalf("%d buckets, want at most %d", len(bx), maxTrendPoints)
	}
	if _, b := theilSen(xs, xs); math.Abs(b-1) > 1e-9 {
		t.Errorf("slope over bucketed points %v, want 1", b)
	}
}

func TestSmoothRemovesSpikes(t *testing.T) {
	got := smooth([]float64{10, 10, 90, 10, 10, 50, 50, 50}, 1)
	want := []float64{10, 10, 10, 10, 10, 50, 50, 50}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("smooth = %v, want %v", got, want)
		}
	}
}

func TestRuns(t *testing.T) {
	on := []bool{false, true, false, true, true, true, false, true, true}
	ok := func(i int) bool { return on[i] }
	cases := []struct {
		name  string
		run   func() (span, bool)
		found bool
		want  span
	}{
		{"first run of at least 2", func() (span, bool) { return firstRun(len(on), 2, ok) }, true, span{3, 5}},
		{"first run of at least 1", func() (span, bool) { return firstRun(len(on), 1, ok) }, true, span{1, 1}},
		{"no run of 4", func() (span, bool) { return firstRun(len(on), 4, ok) }, false, span{}},
		{"longest run", func() (span, bool) { return longestRun(len(on), ok) }, true, span{3, 5}},
		{"cluster of 3 within 3", func() (span, bool) { return firstCluster(len(on), 3, 3, ok) }, true, span{3, 5}},
		{"cluster of 3 within 5, not in a row", func() (span, bool) { return firstCluster(len(on), 3, 5, ok) }, true, span{1, 5}},
		{"no cluster of 3 within 2", func() (span, bool) { return firstCluster(len(on), 3, 2, ok) }, false, span{}},
		{"cluster cut by the end", func() (span, bool) { return firstCluster(len(on), 6, 20, ok) }, true, span{1, 8}},
	}
	for _, tc := range cases {
		got, found := tc.run()
		if found != tc.found || (found && got != tc.want) {
			t.Errorf("%s: %+v (found %v), want %+v (found %v)", tc.name, got, found, tc.want, tc.found)
		}
	}
}

func TestSustainedNeedsPointsAndSeconds(t *testing.T) {
	cases := []struct {
		name   string
		points []series.Point
		found  bool
	}{
		{"one scrape", pts(0, 5, 0, 1, 0), false},
		{"two scrapes 5 s apart", pts(0, 5, 0, 1, 1, 0), true},
		{"two scrapes 1 s apart", pts(0, 1, 0, 1, 1, 0), false},
		{"three scrapes 1 s apart", pts(0, 1, 0, 1, 1, 1, 0), true},
	}
	for _, tc := range cases {
		_, found := sustained(tc.points, func(i int) bool { return tc.points[i].Value > 0 })
		if found != tc.found {
			t.Errorf("%s: sustained %v, want %v", tc.name, found, tc.found)
		}
	}
}

func TestPerSecondReadsRawCounters(t *testing.T) {
	cases := []struct {
		name string
		s    *series.Series
		want []series.Point
	}{
		{"rate as stored", mk("x_total", series.Rate, pts(0, 5, 2, 3)), pts(0, 5, 2, 3)},
		{"raw counter, with a reset skipped", mk("x_total", series.Gauge, pts(0, 5, 10, 20, 5, 15)), []series.Point{{Sec: 5, Value: 2}, {Sec: 15, Value: 2}}},
		{"gauge as sampled", mk("x_in_use", series.Gauge, pts(0, 5, 10, 20)), pts(0, 5, 10, 20)},
	}
	for _, tc := range cases {
		got := perSecond(tc.s)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v, want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

// TestEveryUnitIsKnownToTheRenderer checks that each unit's name is one
// units.Of formats in that unit, not as a plain number.
func TestEveryUnitIsKnownToTheRenderer(t *testing.T) {
	for u := Unit(0); u < numUnits; u++ {
		if u == UnitNumber {
			continue
		}
		if got := units.Of(1.5, u.String()); got == units.Number(1.5) {
			t.Errorf("unit %s reads %q, a plain number: units.Of does not know its name", u, got)
		}
	}
}
