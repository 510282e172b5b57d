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

// starvedSeries is the generator's own series over len(used) seconds: its
// CPU, its threads' wait for a CPU and (hostBusy > 0) its host's CPU, of 2.
func starvedSeries(used, wait []float64, hostBusy float64) series.Set {
	labels := []string{"role", "generator", "target", "loadlens"}
	set := append(generatorSeries(used...), mk(GeneratorCPUWait, series.Gauge, pts(0, 1, wait...), labels...))
	if hostBusy > 0 {
		set = append(set, mk(HostCPU, series.Gauge, pts(0, 1, repeat(hostBusy, len(used))...), labels...),
			mk(HostSteal, series.Gauge, pts(0, 1, repeat(0, len(used))...), labels...),
			mk(HostCPUs, series.Gauge, pts(0, 1, repeat(2, len(used))...), labels...))
	}
	return set
}

// starvedOpen is the trial's busy.sh: 3,000/s against a target answering in
// 70µs while three CPU hogs kept both CPUs busy; loadlens ran 0.1 cores and
// waited 0.3–0.66 cores' worth for a CPU, its lag p99 up to 90ms, and the
// run said "no bottleneck found". The seconds' wait is scaled by waitScale
// (a quiet host: 0.05) and the host's CPUs are busy as given.
func starvedOpen(waitScale, hostBusy float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		lags := []time.Duration{5 * time.Millisecond, 7 * time.Millisecond, 15 * time.Millisecond, 6 * time.Millisecond, 37 * time.Millisecond, 90 * time.Millisecond}
		secs := steady(6, 3000, 3, 300*time.Microsecond)
		for i := range secs {
			secs[i].lag = lags[i]
		}
		wait := []float64{0.41, 0.31, 0.38, 0.33, 0.66, 0.53}
		for i := range wait {
			wait[i] *= waitScale
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /x"), secs), Series: starvedSeries(repeat(0.1, 6), wait, hostBusy)}
	}
}

// starvedVUs is the trial's closed model of 20 VUs sharing its one CPU
// with a hog (`taskset -c 1`): it ran 0.22–0.46 cores and waited 0.45–0.72
// for a CPU on a host at 2.0 of 2 cores (hostBusy), in the given seconds
// only (the others wait 0.02).
func starvedVUs(hostBusy float64, seconds ...int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		used := []float64{0.35, 0.44, 0.46, 0.34, 0.33, 0.22, 0.3, 0.3}
		wait := repeat(0.02, len(used))
		starved := []float64{0.45, 0.53, 0.51, 0.54, 0.6, 0.67, 0.6, 0.6}
		for _, s := range seconds {
			wait[s] = starved[s]
		}
		return Input{Run: build(t, layout(modelVUs, "GET /x"), steady(len(used), 50000, 20, 300*time.Microsecond)), Series: starvedSeries(used, wait, hostBusy)}
	}
}

// lightOnALoadedHost is a 2,000/s run measured on this project's shared
// machine: loadlens ran 0.09 cores and its wake-ups waited 0.1 cores' worth
// in all, on a host 40 % busy, with a lag p99 of 0.4ms: not starved.
func lightOnALoadedHost(t *testing.T) Input {
	secs := steady(5, 2000, 2, 200*time.Microsecond)
	for i := range secs {
		secs[i].lag = 400 * time.Microsecond
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /x"), secs), Series: starvedSeries(repeat(0.09, 5), []float64{0.1, 0.11, 0.1, 0.1, 0.12}, 0.8)}
}

// cpuHeldDrops is the trial's 20,000/s run sharing one CPU with a hog: the
// engine held the pool because its busy VUs waited for a CPU and dropped
// 3,865 arrivals, and the latency it measured rose with its own wait.
func cpuHeldDrops(t *testing.T) Input {
	secs := steady(6, 19000, 800, time.Millisecond)
	for i := 2; i < 6; i++ {
		secs[i].dropped = 800
		secs[i].reqs[0].dur = even(12*time.Millisecond, 0.5)
	}
	held := mk(GeneratorPoolHeld, series.Gauge, pts(2, 1, 1711, 1711, 1711, 1711), "role", "generator", "target", "loadlens", "scenario", "s", "reason", "generator_cpu")
	return Input{Run: build(t, layout(modelArrivalRate, "GET /x"), secs), Series: series.Set{held}}
}
