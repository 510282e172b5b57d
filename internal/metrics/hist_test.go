package metrics

import (
	"testing"
	"time"
)

// within reports whether got is within HDR's 3-digit precision of want.
func within(got, want time.Duration) bool {
	diff := got - want
	if diff < 0 {
		diff = -diff
	}
	return diff <= want/1000+time.Microsecond
}

func TestHistQuantilesOfKnownDistribution(t *testing.T) {
	// 1 ms, 2 ms, .. 1000 ms once each: the p-th percentile is p*10 ms.
	h := NewHist()
	for i := 1; i <= 1000; i++ {
		h.Record(time.Duration(i) * time.Millisecond)
	}
	tests := []struct {
		name string
		got  time.Duration
		want time.Duration
	}{
		{"p0 is the minimum", h.Quantile(0), 1 * time.Millisecond},
		{"p50", h.Quantile(50), 500 * time.Millisecond},
		{"p90", h.Quantile(90), 900 * time.Millisecond},
		{"p99", h.Quantile(99), 990 * time.Millisecond},
		{"p99.9", h.Quantile(99.9), 999 * time.Millisecond},
		{"p100 is the maximum", h.Quantile(100), 1000 * time.Millisecond},
		{"min", h.Min(), 1 * time.Millisecond},
		{"max", h.Max(), 1000 * time.Millisecond},
		{"mean", h.Mean(), 500500 * time.Microsecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !within(tt.got, tt.want) {
				t.Errorf("got %v, want %v ± 0.1%%", tt.got, tt.want)
			}
		})
	}
	if h.Count() != 1000 {
		t.Errorf("Count() = %d, want 1000", h.Count())
	}
}

func TestHistRecordClampsToRange(t *testing.T) {
	tests := []struct {
		name string
		in   time.Duration
		want time.Duration
	}{
		{"negative counts as zero", -time.Second, 0},
		{"sub-microsecond truncates to zero", 999 * time.Nanosecond, 0},
		{"one microsecond", time.Microsecond, time.Microsecond},
		{"beyond 60 s counts as 60 s", 5 * time.Minute, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h Hist // the zero value is usable
			h.Record(tt.in)
			if got := h.Max(); !within(got, tt.want) {
				t.Errorf("Max() = %v, want %v", got, tt.want)
			}
			if h.Count() != 1 {
				t.Errorf("Count() = %d, want 1", h.Count())
			}
		})
	}
}

func TestHistMergeResetAndNil(t *testing.T) {
	a, b := NewHist(), NewHist()
	for i := range 100 {
		a.Record(time.Duration(i+1) * time.Millisecond)
		b.Record(time.Duration(i+101) * time.Millisecond)
	}
	a.Merge(b)
	a.Merge(nil)
	if a.Count() != 200 || !within(a.Quantile(50), 100*time.Millisecond) || !within(a.Max(), 200*time.Millisecond) {
		t.Errorf("merged: count %d p50 %v max %v, want 200, 100ms, 200ms", a.Count(), a.Quantile(50), a.Max())
	}
	c := a.Clone()
	a.Reset()
	if a.Count() != 0 || a.Quantile(99) != 0 || a.Mean() != 0 || a.Min() != 0 {
		t.Errorf("after Reset: count %d p99 %v mean %v min %v, want all zero", a.Count(), a.Quantile(99), a.Mean(), a.Min())
	}
	if c.Count() != 200 {
		t.Errorf("clone lost samples on Reset of the original: count %d", c.Count())
	}
	var nilHist *Hist
	if nilHist.Count() != 0 || nilHist.Quantile(50) != 0 || nilHist.Max() != 0 || nilHist.Percentiles() != nil {
		t.Error("a nil *Hist should read as empty")
	}
}

func TestHistPercentiles(t *testing.T) {
	tests := []struct {
		name    string
		samples int
	}{
		{"one sample", 1},
		{"ten samples", 10},
		{"many samples", 100000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHist()
			for i := range tt.samples {
				h.Record(time.Duration(i+1) * 10 * time.Microsecond)
			}
			pts := h.Percentiles()
			if len(pts) < 2 || len(pts) > maxSpectrumPoints {
				t.Fatalf("got %d points, want 2..%d", len(pts), maxSpectrumPoints)
			}
			if pts[0].Percentile != 0 || pts[len(pts)-1].Percentile != 100 {
				t.Errorf("spectrum spans %v..%v, want 0..100", pts[0].Percentile, pts[len(pts)-1].Percentile)
			}
			if pts[len(pts)-1].Value != h.Max() {
				t.Errorf("p100 = %v, want max %v", pts[len(pts)-1].Value, h.Max())
			}
			for i := 1; i < len(pts); i++ {
				if pts[i].Percentile <= pts[i-1].Percentile || pts[i].Value < pts[i-1].Value {
					t.Fatalf("point %d (%v) does not follow %v", i, pts[i], pts[i-1])
				}
			}
		})
	}
}
