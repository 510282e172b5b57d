package capacityrun

import (
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
)

// stepSeconds returns, second by second, a step's errors the target
// answered and its arrivals that came with others, by how late, from which
// the search tells the target's own errors from those a burst of the
// generator could explain (capacity's burst.go): an iteration that started
// a gap between arrivals (1/rate, iterations/s) or more late came with the
// next, and the goroutines' wait for a CPU may hold back as many as were
// due meanwhile after they started. nil when its run.db cannot be read
// again: then no error is told apart, and the step is judged as before.
func stepSeconds(in *report.Input, rate float64) []capacity.Second {
	if rate <= 0 {
		return nil
	}
	gap := time.Duration(float64(time.Second) / rate)
	late := map[int][]capacity.Lateness{}
	err := app.ReadSnapshots(app.RunDB(in.Dir), func(s *metrics.Snapshot) error {
		for _, sc := range s.Scenarios {
			sc.Lag.Buckets(func(low time.Duration, n int64) {
				if low >= gap && n > 0 {
					late[s.Second] = append(late[s.Second], capacity.Lateness{By: low, N: n})
				}
			})
		}
		return nil
	})
	if err != nil {
		return nil
	}
	wait := map[int]float64{}
	for _, s := range in.Series.Find(diagnose.GeneratorStall) {
		for _, p := range s.Points {
			wait[p.Sec] = max(wait[p.Sec], p.Value)
		}
	}
	var secs []capacity.Second // by the run's second, from its start
	for _, s := range in.Run.Series {
		if s.Sec < 0 || s.Sec > len(in.Run.Series) {
			continue // before the run, or past every second it recorded
		}
		for len(secs) <= s.Sec {
			secs = append(secs, capacity.Second{})
		}
		n, mean := iterationsOf(s)
		secs[s.Sec] = capacity.Second{Answered: diagnose.Answered(s.Failures), Late: late[s.Sec],
			Wait: time.Duration(wait[s.Sec] * float64(time.Second)), Lag: s.LagP99, Iterations: n, IterationMean: mean}
	}
	return secs
}

// iterationsOf is the iterations that ended in a second, over its
// scenarios, and their mean length.
func iterationsOf(s metrics.Second) (int64, time.Duration) {
	var n int64
	var weighted float64
	for _, sc := range s.PerScenario {
		n += sc.Iterations
		weighted += float64(sc.Iterations) * float64(sc.IterationMean)
	}
	if n == 0 {
		return 0, 0
	}
	return n, time.Duration(weighted / float64(n))
}

// serviceTime is how long the target held a request without a queue or
// the generator's lateness: the lowest median of a second of the hold in
// which it failed fewer than a tenth of the requests (so that its median
// is an answer, not a fast refusal); 0 when no second was so.
func serviceTime(secs []metrics.Second, hold time.Duration) time.Duration {
	n := int(hold / time.Second)
	var least time.Duration
	for _, s := range secs {
		if s.Sec < 0 || s.Sec >= n || s.Latencies == 0 || 10*s.Failed >= s.Requests || s.P50 <= 0 {
			continue
		}
		if least == 0 || s.P50 < least {
			least = s.P50
		}
	}
	return least
}
