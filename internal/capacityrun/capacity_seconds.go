package capacityrun

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
)

// stepSeconds returns, second by second, a step's errors the target
// answered and its arrivals that came with others, from which the search
// tells the target's own errors from those a burst of the generator could
// explain (capacity's burst.go): an iteration that started a gap between
// arrivals (1/rate, iterations/s) or more late came with the next, and the
// goroutines' wait for a CPU may hold back as many as were due meanwhile
// after they started. nil when its run.db cannot be read again: then no
// error is told apart, and the step is judged as before.
func stepSeconds(in *report.Input, rate float64) []capacity.Second {
	if rate <= 0 {
		return nil
	}
	gap := time.Duration(float64(time.Second) / rate)
	late := map[int]int64{}
	err := app.ReadSnapshots(app.RunDB(in.Dir), func(s *metrics.Snapshot) error {
		for _, sc := range s.Scenarios {
			sc.Lag.Buckets(func(low time.Duration, n int64) {
				if low >= gap {
					late[s.Second] += n
				}
			})
		}
		return nil
	})
	if err != nil {
		return nil
	}
	stall := map[int]float64{}
	for _, s := range in.Series.Find(diagnose.GeneratorStall) {
		for _, p := range s.Points {
			stall[p.Sec] = max(stall[p.Sec], p.Value)
		}
	}
	secs := make([]capacity.Second, 0, len(in.Run.Series))
	for _, s := range in.Run.Series {
		held := int64(math.Ceil(rate * stall[s.Sec]))
		secs = append(secs, capacity.Second{Answered: diagnose.Answered(s.Failures), Late: late[s.Sec] + held})
	}
	return secs
}
