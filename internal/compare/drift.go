package compare

import (
	"math"

	"github.com/loadlens/loadlens/internal/stats"
)

// Drift thresholds: a run whose per-second median latency moves steadily
// one way (Kendall's tau of the medians against time at least driftTau,
// over at least driftSeconds seconds) drifted; by how much is the change
// from its first quarter's median to its last's.
const (
	driftTau     = 0.5
	driftSeconds = 12
)

// drift is how much, in percent, a run's per-second median latency moved
// from the first quarter of its compared seconds to the last, when it
// moved steadily: a service still warming up (a fresh JVM's fell from
// 12 ms to 3.4 ms over 40 s) or filling up. 0 when it did not.
func (rs *rowSeconds) drift() float64 {
	var p50 []float64
	for _, s := range rs.secs {
		if s.hasPercentiles && s.reqs > 0 && s.p50 > 0 {
			p50 = append(p50, s.p50)
		}
	}
	n := len(p50)
	if n < driftSeconds || math.Abs(stats.TrendTau(p50)) < driftTau {
		return 0
	}
	q := n / 4
	first, last := stats.Median(p50[:q]), stats.Median(p50[n-q:])
	if first <= 0 || last <= 0 {
		return 0
	}
	return 100 * (max(first, last)/min(first, last) - 1)
}
