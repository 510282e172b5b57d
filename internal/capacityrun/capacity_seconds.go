package capacityrun

import (
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/report"
)

// stepSeconds returns a step's errors the target answered and how long
// the generator held its arrivals back, second by second: the search tells
// the target's own errors from those a burst released by a stall of the
// generator could explain (capacity's burst.go). An arrival is held back
// by its start's lag, and its request then by the goroutines' wait for a
// CPU, so the two add up.
func stepSeconds(in *report.Input) []capacity.Second {
	stall := map[int]float64{}
	for _, s := range in.Series.Find(diagnose.GeneratorStall) {
		for _, p := range s.Points {
			stall[p.Sec] = max(stall[p.Sec], p.Value)
		}
	}
	secs := make([]capacity.Second, 0, len(in.Run.Series))
	for _, s := range in.Run.Series {
		secs = append(secs, capacity.Second{Answered: diagnose.Answered(s.Failures), Held: s.LagP99 + time.Duration(stall[s.Sec]*float64(time.Second))})
	}
	return secs
}
