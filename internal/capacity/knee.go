package capacity

import (
	"sort"
	"time"
)

// Knee is where latency starts to climb with load: the highest rate whose
// p95, and that of every lower rate, stayed within KneeFactor × the lowest
// p95 of the search. Past it, queueing sets in.
type Knee struct {
	Rate, Throughput float64       // offered and completed at the knee
	P95              time.Duration // at the knee
	Base             time.Duration // the lowest p95 of any step: latency at low load
	NextRate         float64       // the first rate past the knee
	NextP95          time.Duration // and its p95
}

// findKnee locates the knee on the latency-vs-load curve of the trusted
// steps (Record.Clean); nil when there are fewer than three, when latency never passed
// the factor, or when it had already passed it at the lowest rate.
func findKnee(steps []Record, factor float64) *Knee {
	var pts []StepResult
	for _, s := range steps {
		if s.Clean() && s.P95 > 0 {
			pts = append(pts, s.StepResult)
		}
	}
	if len(pts) < 3 {
		return nil
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].Rate < pts[j].Rate })
	base := pts[0].P95
	for _, p := range pts {
		base = min(base, p.P95)
	}
	limit := time.Duration(factor * float64(base))
	for i, p := range pts {
		if p.P95 <= limit {
			continue
		}
		if i == 0 {
			return nil
		}
		k := pts[i-1]
		return &Knee{Rate: k.Rate, Throughput: k.Throughput, P95: k.P95, Base: base, NextRate: p.Rate, NextP95: p.P95}
	}
	return nil
}
