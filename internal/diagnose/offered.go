package diagnose

import (
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// runPerIteration is the run's requests per iteration, all scenarios
// together; 1 when either is zero. An iteration the end of the run cut
// off is counted by its interrupted request (interruptedIterations), as
// its requests are: else a one-request flow's 1,643 requests cut at the
// graceful stop read as 2.42 requests per iteration (trial A39).
func runPerIteration(run *metrics.Run) float64 {
	var requests int64
	iterations := interruptedIterations(run, -1)
	for _, s := range run.Series {
		requests += s.Requests
		iterations += s.Iterations
	}
	if iterations > 0 && requests > 0 {
		return float64(requests) / float64(iterations)
	}
	return 1
}

// interruptedIterations is the iterations of scenario sc (-1: of every
// scenario) the end of the run cut off in a request: one per interrupted
// request, which its iteration never completed to count. Iterations are
// counted when they complete, requests when they end, interrupted ones
// too.
func interruptedIterations(run *metrics.Run, sc int) int64 {
	var n int64
	for i := range run.Endpoints {
		if i < len(run.Layout.Endpoints) && (sc < 0 || int(run.Layout.Endpoints[i].Scenario) == sc) {
			n += run.Endpoints[i].Failures[sample.Interrupted]
		}
	}
	return n
}

// scenarioPerIteration is each scenario's own requests per iteration over
// the run, its iterations cut off by the end counted (runPerIteration): a
// flow of two requests offers two per iteration however many its
// neighbour sends. A scenario with no iteration or no request takes the
// run's. Nil when the seconds carry no per-scenario figures.
func scenarioPerIteration(run *metrics.Run, whole float64) []float64 {
	n := len(run.Layout.Scenarios)
	requests, iterations := make([]int64, n), make([]int64, n)
	for sc := range iterations {
		iterations[sc] = interruptedIterations(run, sc)
	}
	for _, s := range run.Series {
		if len(s.PerScenario) != n {
			return nil
		}
		for i, e := range s.PerEndpoint {
			if sc := run.Layout.Endpoints[i].Scenario; sc >= 0 && int(sc) < n {
				requests[sc] += e.Requests
			}
		}
		for i, sc := range s.PerScenario {
			iterations[i] += sc.Iterations
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = whole
		if requests[i] > 0 && iterations[i] > 0 {
			out[i] = float64(requests[i]) / float64(iterations[i])
		}
	}
	return out
}

// offeredSeries is the requests each second of run offered, the part of
// them dropped, and the iterations offered. An arrival-rate scenario offers
// what its schedule asked for in the second, which the engine recorded
// (ScenarioFigures.Offered: the arrivals started or dropped, by their
// intended start), never what the target completed: a target that stalls
// then drains completes seconds of arrivals in one. Each scenario counts at
// its own requests per iteration. A closed scenario has no schedule: it
// offers what it completed (iterations), a VU sending its next request when
// the last returned. A run.db of an earlier build kept no schedule, and
// rebuiltOffered rebuilds one from the completions.
// scheduled says which it is.
func offeredSeries(run *metrics.Run, models []string, whole int) (offered, dropped, started []float64, scheduled bool) {
	perScen := scenarioPerIteration(run, runPerIteration(run))
	if perScen == nil || !recordedOffered(run, models) {
		offered, dropped = rebuiltOffered(run, models, whole)
		return offered, dropped, rebuiltStarted(run), false
	}
	n := len(run.Series)
	offered, dropped, started = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range run.Series {
		for sc, f := range run.Series[i].PerScenario {
			arrivals := f.Iterations + f.Dropped
			if sc < len(models) && models[sc] == modelArrivalRate {
				arrivals = f.Offered
			}
			started[i] += float64(arrivals)
			offered[i] += float64(arrivals) * perScen[sc]
			dropped[i] += float64(f.Dropped) * perScen[sc]
		}
	}
	return offered, dropped, started, true
}

// recordedOffered reports whether the engine recorded what the run's
// schedules offered: some arrival-rate scenario has arrivals offered. A
// run.db of an earlier build has none; a schedule that offered nothing
// has nothing to rebuild either.
func recordedOffered(run *metrics.Run, models []string) bool {
	for i := range run.Series {
		for sc, f := range run.Series[i].PerScenario {
			if f.Offered > 0 && sc < len(models) && models[sc] == modelArrivalRate {
				return true
			}
		}
	}
	return false
}

// rebuiltStarted is the iterations each second offered in a run.db of an
// earlier build: completed + dropped + the growth of the busy VUs.
func rebuiltStarted(run *metrics.Run) []float64 {
	out := make([]float64, len(run.Series))
	var prevVUs int64
	for i := range run.Series {
		s := &run.Series[i]
		out[i] = max(float64(s.Iterations+s.Dropped+s.VUs-prevVUs), 0)
		prevVUs = s.VUs
	}
	return out
}

// rebuiltOffered is offeredSeries of a run.db of an earlier build, which
// kept no schedule: for each scenario, (iterations + dropped + the growth
// of its busy VUs when it is arrival-rate) × its own requests per
// iteration, summed. Iterations count when they complete, so an arrival
// still running at a second's end is in the busy VUs' growth (busyGrowth),
// which a peak's jitter must not read as load. A closed scenario's VUs are
// not arrivals.
func rebuiltOffered(run *metrics.Run, models []string, whole int) (offered, dropped []float64) {
	perRun := runPerIteration(run)
	perScen := scenarioPerIteration(run, perRun)
	n := len(run.Series)
	offered, dropped = make([]float64, n), make([]float64, n)
	// The last second, cut by the stop, ends with VUs the run stopped, not
	// a drained queue: no earlier second's window reaches into it.
	cut := n
	for cut > 0 && run.Series[cut-1].Sec >= whole {
		cut--
	}
	if perScen == nil {
		// Seconds without per-scenario figures: the run's together.
		busy := func(i int) int64 { return run.Series[i].VUs }
		for i := range run.Series {
			s := &run.Series[i]
			offered[i] = max(float64(s.Iterations+s.Dropped)+busyGrowth(cut, i, busy, nil), 0) * perRun
			dropped[i] = float64(s.Dropped) * perRun
		}
		return offered, dropped
	}
	for sc := range perScen {
		open := sc < len(models) && models[sc] == modelArrivalRate
		busy := func(i int) int64 { return run.Series[i].PerScenario[sc].VUs }
		little := func(i int) float64 { // Little's law: completions × their mean duration
			f := run.Series[i].PerScenario[sc]
			return float64(f.Iterations) * f.IterationMean.Seconds()
		}
		for i := range run.Series {
			f := run.Series[i].PerScenario[sc]
			started := float64(f.Iterations + f.Dropped)
			if open {
				started = max(started+busyGrowth(cut, i, busy, little), 0)
			}
			offered[i] += started * perScen[sc]
			dropped[i] += float64(f.Dropped) * perScen[sc]
		}
	}
	return offered, dropped
}

// busyGrowth is how many more VUs stayed busy after second i than after
// the one before, looking no further than second n-1. The gauge is each second's peak, and an arrival still
// running after a second is busy in the next ones too, so the VUs that
// stayed busy after second j are taken as the least peak of j and the
// next busyWindow-1 seconds: a queue that grows lasts, a peak's jitter
// does not. A peak of one VU may be one busy a millisecond a second:
// little, when not nil, is Little's law's busy VUs (completions × their
// mean duration), which decides that one.
func busyGrowth(n, i int, peak func(int) int64, little func(int) float64) float64 {
	end := func(j int) float64 {
		if j < 0 {
			return 0
		}
		v := peak(j)
		for k := j + 1; k < min(j+busyWindow, max(n, j+1)); k++ {
			v = min(v, peak(k))
		}
		if little != nil && v == 1 {
			return min(1, little(j))
		}
		return float64(v)
	}
	return end(i) - end(i-1)
}

// busyWindow is the seconds whose least busy-VU peak counts as the busy
// VUs after the first of them.
const busyWindow = 3
