package compare

import (
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/stats"
)

// A late start adds the generator's wait to the latency of the request it
// starts (latencies are timed from the intended start), so the wait at a
// percentile's own level is what can move that percentile: a generator
// whose p99 lag is 47 ms but whose median lag is 0.2 ms adds 47 ms to 1 %
// of requests, which moves a median by about 0.2 ms, not by 47 (the trial's
// p50 +61 % was held back as "< noise 202 %", a p99 gap over a p50). When
// the wait comes with the slowness (one busy host delays both), the
// percentiles of a sum add, level by level; that is the reading used.

// lagLevels is a run's scheduler lag at the p50, p95 and p99 levels: each
// the median over the compared seconds of that second's lag percentile,
// in nanoseconds; -1 when no second recorded a lag (closed models).
type lagLevels [3]float64

// at is the lag at the level of latency metric m (p99 for any other).
func (l lagLevels) at(m Metric) float64 {
	switch m.Base() {
	case P50:
		return l[0]
	case P95:
		return l[1]
	}
	return l[2]
}

// lagPercentiles are the levels of lagLevels.
var lagPercentiles = [3]float64{50, 95, 99}

// lagSeconds gathers each compared second's lag percentiles from its
// snapshot, all scenarios merged.
type lagSeconds struct {
	secs     [3][]float64
	recorded bool
	scratch  *metrics.Hist
}

// add takes one second's snapshot; a second without lag counts as none.
func (l *lagSeconds) add(s *metrics.Snapshot) {
	if l.scratch == nil {
		l.scratch = metrics.NewHist()
	}
	l.scratch.Reset()
	for i := range s.Scenarios {
		if s.Scenarios[i].Lag != nil {
			l.scratch.Merge(s.Scenarios[i].Lag)
		}
	}
	for k, q := range lagPercentiles {
		x := float64(l.scratch.Quantile(q))
		l.recorded = l.recorded || x > 0
		l.secs[k] = append(l.secs[k], x)
	}
}

// levels is the median second's lag at each level, or -1s without any.
func (l *lagSeconds) levels() lagLevels {
	if !l.recorded {
		return lagLevels{-1, -1, -1}
	}
	var out lagLevels
	for k := range out {
		out[k] = stats.Median(l.secs[k])
	}
	return out
}

// seriesLag is the lag of a run without snapshots: its seconds kept only
// the p99, which stands for every level (the most a lag can add).
func seriesLag(series []metrics.Second, ri RunInfo) lagLevels {
	p99 := medianLag(series, ri)
	return lagLevels{p99, p99, p99}
}
