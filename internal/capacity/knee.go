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
	// Base is latency at low load: the lowest p95 of the steps below the
	// knee's rate, never the knee's own nor a higher step's (noisy low
	// steps made the knee quote itself); 0 when the knee is the lowest.
	Base time.Duration
	// Limit is what the knee was judged against: KneeFactor × the lowest
	// p95 of the search, which may be the knee's own or a higher step's.
	Limit    time.Duration
	NextRate float64       // the first rate past the knee, iterations/s
	NextP95  time.Duration // and its p95
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
			return &Knee{Rate: k.Rate, Throughput: k.Throughput, P95: k.P95, Base: lowestBelow(pts[:i], k.Rate), Limit: limit, NextRate: p.Rate, NextP95: p.P95}
		}
	}
	return nil
}

// lowestBelow returns the lowest p95 of the steps below rate (another try
// at the knee's rate is the knee, not low load); 0 when there are none.
func lowestBelow(pts []StepResult, rate float64) time.Duration {
	var low time.Duration
	for _, p := range pts {
		if p.Rate < rate && (low == 0 || p.P95 < low) {
			low = p.P95
		}
	}
	return low
}
