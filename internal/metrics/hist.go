// Package metrics aggregates the engine's measurements: a sharded Recorder
// that VUs write into without contention, per-second Snapshots it produces,
// their binary encoding, and the whole-run model thresholds and reports use.
// It is the only package that depends on hdrhistogram-go.
package metrics

import (
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The geometry every histogram of a run shares, so that any two merge
// index-to-index: microseconds from 1 µs to 60 s with 3 significant digits.
const (
	histLowest  = 1
	histHighest = 60_000_000
	histDigits  = 3
)

// micros converts a duration to the histogram's unit, clamped to its range.
func micros(d time.Duration) int64 {
	us := int64(d / time.Microsecond)
	if us < 0 {
		return 0
	}
	if us > histHighest {
		return histHighest
	}
	return us
}

// newDense returns an empty dense histogram, the fast one to record into.
func newDense() *hdr.Histogram {
	return hdr.New(histLowest, histHighest, histDigits)
}

// Hist is a histogram of durations with microsecond resolution (1 µs .. 60 s,
// 3 significant digits; longer durations count as 60 s). It is stored sparse
// (hdrhistogram.PackedHistogram): snapshots and run totals hold many of
// them, and most of their buckets are empty. The zero value is ready to use;
// a nil *Hist reads as empty.
type Hist struct {
	p *hdr.PackedHistogram
}

// PercentilePoint is one point of a histogram's percentile spectrum.
type PercentilePoint struct {
	Percentile float64       // 0..100
	Value      time.Duration // the largest value at or below which Percentile % of the samples fall
}

// NewHist returns an empty histogram.
func NewHist() *Hist {
	return &Hist{p: hdr.NewPacked(histLowest, histHighest, histDigits)}
}

// packed returns the backing histogram, creating it for a zero Hist.
func (h *Hist) packed() *hdr.PackedHistogram {
	if h.p == nil {
		h.p = hdr.NewPacked(histLowest, histHighest, histDigits)
	}
	return h.p
}

// Record adds one duration.
func (h *Hist) Record(d time.Duration) {
	// The value is clamped into range, so recording cannot fail.
	_ = h.packed().RecordValue(micros(d))
}

// Merge adds every sample of o to h.
func (h *Hist) Merge(o *Hist) {
	if o == nil || o.p == nil || o.p.TotalCount() == 0 {
		return
	}
	h.packed().Merge(o.p)
}

// mergeDense adds every sample of a dense recording histogram to h.
func (h *Hist) mergeDense(d *hdr.Histogram) {
	if d == nil || d.TotalCount() == 0 {
		return
	}
	h.packed().MergeFrom(d)
}

// Clone returns an independent copy of h.
func (h *Hist) Clone() *Hist {
	if h == nil || h.p == nil {
		return NewHist()
	}
	return &Hist{p: h.p.Clone()}
}

// Count returns the number of samples.
func (h *Hist) Count() int64 {
	if h == nil || h.p == nil {
		return 0
	}
	return h.p.TotalCount()
}

// Quantile returns the value below which q percent (0..100) of the samples
// fall, or 0 for an empty histogram.
func (h *Hist) Quantile(q float64) time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.p.ValueAtPercentile(q)) * time.Microsecond
}

// Mean returns the mean of the samples, or 0 for an empty histogram.
func (h *Hist) Mean() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(math.Round(h.p.Mean() * float64(time.Microsecond)))
}

// Min returns the smallest sample (to the histogram's precision), or 0.
func (h *Hist) Min() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.p.Min()) * time.Microsecond
}

// Max returns the largest sample (to the histogram's precision), or 0.
func (h *Hist) Max() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.p.Max()) * time.Microsecond
}

// Reset removes every sample, keeping the storage for reuse.
func (h *Hist) Reset() {
	if h.p != nil {
		h.p.Reset()
	}
}

// maxSpectrumPoints bounds Percentiles for histograms with huge counts.
const maxSpectrumPoints = 256

// Percentiles returns the percentile spectrum for plotting, spaced as
// HdrHistogram's percentile output with 5 ticks per half distance (0, 10,
// 20, .. 50, 55, .. 75, 77.5, ..), ending with the 100th percentile.
func (h *Hist) Percentiles() []PercentilePoint {
	n := h.Count()
	if n == 0 {
		return nil
	}
	var levels []float64
	for level := 0.0; len(levels) < maxSpectrumPoints-1; {
		levels = append(levels, level)
		// Finer levels than one sample's share repeat the maximum.
		if 100-level <= 100/float64(n) {
			break
		}
		halfDistance := math.Trunc(math.Pow(2, math.Trunc(math.Log2(100/(100-level)))+1))
		level += 100 / (5 * halfDistance)
	}
	levels = append(levels, 100)
	values := h.p.ValueAtPercentilesSlice(levels)
	points := make([]PercentilePoint, len(levels))
	for i, l := range levels {
		points[i] = PercentilePoint{Percentile: l, Value: time.Duration(values[i]) * time.Microsecond}
	}
	return points
}
