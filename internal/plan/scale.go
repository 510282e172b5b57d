package plan

import (
	"math"
	"time"
)

// RequestsPerIteration is the requests one iteration of the test sends at
// the mix Scale keeps: each scenario's requests per iteration, weighted by
// its share of the test's peak rate.
func (p *Plan) RequestsPerIteration() float64 {
	var total, weighted float64
	for _, s := range p.Scenarios {
		peak := PeakRate(&s.Load)
		total += peak
		weighted += peak * float64(s.RequestsPerIteration())
	}
	if total <= 0 {
		return 1
	}
	return weighted / total
}

// Scale returns a copy of p whose arrival-rate scenarios together offer
// rate per second for hold, each keeping its share of the test's peak. VU
// ceilings grow with the rate, so a step of a capacity search is never
// capped by a ceiling sized for a lower one.
func Scale(p *Plan, rate float64, hold time.Duration) *Plan {
	var total float64
	for _, s := range p.Scenarios {
		total += PeakRate(&s.Load)
	}
	cp := *p
	cp.Scenarios = make([]*Scenario, len(p.Scenarios))
	for i, s := range p.Scenarios {
		sc := *s
		share := 1 / float64(len(p.Scenarios))
		peak := PeakRate(&s.Load)
		if total > 0 {
			share = peak / total
		}
		r := rate * share
		grow := 1.0
		if peak > 0 {
			grow = max(1, r/peak)
		}
		sc.StartTime = 0
		sc.Load.StartRate = r
		sc.Load.Stages = []Stage{{Duration: hold, Target: r}}
		sc.Load.MaxVUs = int(math.Ceil(float64(s.Load.MaxVUs) * grow))
		sc.Load.PreAllocatedVUs = min(sc.Load.MaxVUs, int(math.Ceil(float64(s.Load.PreAllocatedVUs)*grow)))
		cp.Scenarios[i] = &sc
	}
	return &cp
}
