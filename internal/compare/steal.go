package compare

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/stats"
	"github.com/loadlens/loadlens/internal/units"
)

// stealGap is how much more of the host's CPU time the hypervisor must have
// taken in one run than in the other (and over twice as much) before their
// latencies are not taken as the system's: a vCPU paused for others stalls
// every timer on it, so with 2 % of the time stolen about one request in
// fifty waits, and the tail percentiles move. Measured: a 5 ms service on
// loopback, 7 % stolen in one run and none in the other, p95 +61 %.
const stealGap = 0.02

// medianSteal is the median share of the host's CPU time stolen over the
// compared seconds of a run, or -1 when the run recorded none of them.
func medianSteal(steal map[int]float64, ri RunInfo) float64 {
	var xs []float64
	for sec := ri.First; sec <= ri.Last; sec++ {
		if v, ok := steal[sec]; ok {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return -1
	}
	return stats.Median(xs)
}

// stolen compares two runs' median steal shares: +1 when run's exceeds
// base's by stealGap and is over twice it, -1 the other way round, 0
// otherwise or when either is unknown.
func stolen(run, base float64) int {
	switch {
	case run < 0 || base < 0:
		return 0
	case run-base >= stealGap && run > 2*base:
		return 1
	case base-run >= stealGap && base > 2*run:
		return -1
	}
	return 0
}

// stealNote says, for the table, when one run's host lost much more CPU to
// the hypervisor than the other's.
func stealNote(run, base float64) string {
	switch stolen(run, base) {
	case 1:
		return fmt.Sprintf("its host lost %s of its CPU time to other machines (CPU steal, the median second) against %s in the baseline's: its latencies include the hypervisor's pauses",
			units.Share(run), units.Share(base))
	case -1:
		return fmt.Sprintf("the baseline's host lost %s of its CPU time to other machines (CPU steal, the median second) against %s in this run's: the baseline's latencies include the hypervisor's pauses",
			units.Share(base), units.Share(run))
	}
	return ""
}
