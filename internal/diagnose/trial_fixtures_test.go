package diagnose

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// abortedByErrors is the trial's run stopped by its errors: 100/s against
// a target that answers 500 from 0:02.4 on, aborted by a threshold at
// 3.1 s. Only 0:02 is a whole failing second; the cut-short 0:03 fails
// too. stopBurst instead ends with 4 failures at 0:02 and requests the
// stop interrupted.
func abortedByErrors(stopBurst bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(4, 100, 3, 2*time.Millisecond)
		secs[2].reqs[0].fail, secs[2].reqs[0].kind = 60, sample.HTTP5xx
		secs[3].reqs[0].n, secs[3].reqs[0].fail, secs[3].reqs[0].kind = 10, 10, sample.HTTP5xx
		if stopBurst {
			secs[2].reqs[0].fail = 4
			secs[3].reqs[0].kind = sample.Interrupted
		}
		run := build(t, layout(modelArrivalRate, "GET /x"), secs)
		run.SetElapsed(3100 * time.Millisecond)
		return Input{Run: run}
	}
}

// oneBadSecond is 20 s at 100/s whose target timed out every request of
// one second: 5 % of the run, in no two seconds in a row.
func oneBadSecond(t *testing.T) Input {
	secs := steady(20, 100, 3, 2*time.Millisecond)
	secs[8].reqs[0].fail, secs[8].reqs[0].kind = 100, sample.Timeout
	return Input{Run: build(t, layout(modelArrivalRate, "GET /x"), secs)}
}

// hangingTarget is the trial's `--rate 10 --timeout 500ms` against a
// target that never answers: every request times out, the VUs all wait
// for it, and the pool, held by max_vus (held true: recorded as
// loadlens_vu_pool_held), drops arrivals from 0:00.
func hangingTarget(held bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := make([]sec, 3)
		for i := range secs {
			secs[i] = sec{vus: 5, vusMax: 5, dropped: 2, reqs: []reqs{{n: 8, dur: even(500*time.Millisecond, 0.02), fail: 8, kind: sample.Timeout}}}
		}
		in := Input{Run: build(t, layout(modelArrivalRate, "GET /x"), secs)}
		if held {
			in.Series = append(in.Series, mk(GeneratorPoolHeld, series.Gauge, pts(0, 1, 5, 5, 5), "role", "generator", "target", "loadlens", "scenario", "s", "reason", "max_vus"))
		}
		return in
	}
}
