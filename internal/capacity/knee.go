package capacity

import (
	"sort"
	"time"
)

// Knee is where latency starts to climb with load for good: the highest
// rate whose p95 stayed within KneeFactor × the lowest p95 of the search
// while the p95 of every higher rate went past it. A single slow step
// below it (a noisy host) does not move the knee down. Past it, queueing
// sets in.
type Knee struct {
	Rate       float64       // offered at the knee, iterations/s
	Throughput float64       // completed at the knee, req/s
	P95        time.Duration // at the knee
	Base       time.Duration // the lowest p95 of any step: latency at low load
	NextRate   float64       // the first rate past the knee, iterations/s
	NextP95    time.Duration // and its p95
}

// findKnee locates the knee on the latency-vs-load curve of the clean
// steps (Record.Clean) whose errors stayed within the budget maxErr (the
// p95 of failures is no latency of the system's answers), up to the lowest
// failing rate (0: none): past the first rate the SLO failed at, latency
// climbing says nothing about where the system starts to queue, and a
// knee there would sit above a failure. Nil when there are fewer than
// three, or when latency at the highest rate kept stayed within the factor.
func findKnee(steps []Record, factor, maxErr, lowestFailing float64) *Knee {
	var pts []StepResult
	for _, s := range steps {
		if lowestFailing > 0 && s.Rate > lowestFailing {
			continue
		}
		if s.Clean() && s.P95 > 0 && s.ErrorRate <= maxErr {
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
	if pts[len(pts)-1].P95 <= limit {
		return nil // the highest rate tried is within the factor: no climb yet
	}
	for i := len(pts) - 2; i >= 0; i-- {
		if pts[i].P95 <= limit {
			k, p := pts[i], pts[i+1]
			return &Knee{Rate: k.Rate, Throughput: k.Throughput, P95: k.P95, Base: base, NextRate: p.Rate, NextP95: p.P95}
		}
	}
	return nil
}
