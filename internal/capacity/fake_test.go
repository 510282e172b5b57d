package capacity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// queueServer simulates k workers with a fixed service time, whose
// capacity is exactly k/service. With Poisson arrivals (an M/D/k queue)
// latency starts to climb before the capacity; with evenly spaced ones —
// what loadlens's open model sends — it stays at the service time up to
// the capacity. Past it, the queue grows for the whole hold.
type queueServer struct {
	k       int
	service time.Duration
	slo     time.Duration // the p95 threshold
	even    bool          // evenly spaced arrivals instead of Poisson
}

func (q queueServer) capacity() float64 { return float64(q.k) / q.service.Seconds() }

func (q queueServer) RunStep(_ context.Context, s Step) (StepResult, error) {
	rng := rand.New(rand.NewPCG(uint64(s.Rate*1000), 7))
	hold := s.Hold.Seconds()
	svc := q.service.Seconds()
	free := make([]float64, q.k) // when each worker is next free
	var lat []float64
	done := 0
	gap := func() float64 {
		if q.even {
			return 1 / s.Rate
		}
		return rng.ExpFloat64() / s.Rate
	}
	for t := gap(); t < hold; t += gap() {
		w := 0
		for i := range free {
			if free[i] < free[w] {
				w = i
			}
		}
		end := max(t, free[w]) + svc
		free[w] = end
		lat = append(lat, end-t)
		if end <= hold {
			done++
		}
	}
	slices.Sort(lat)
	var sum float64
	for _, v := range lat {
		sum += v
	}
	secs := func(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }
	at := func(p float64) time.Duration { return secs(lat[min(len(lat)-1, int(p*float64(len(lat))))]) }
	mean := sum / float64(len(lat))
	r := StepResult{Rate: s.Rate, Throughput: float64(done) / hold, P95: at(0.95), P99: at(0.99), Mean: secs(mean),
		GeneratorCPU: 0.1, LagP99: time.Millisecond}
	r.Concurrency = r.Throughput * mean
	r.Requests = int64(len(lat))
	r.Passed = r.P95 < q.slo
	if !r.Passed {
		r.FailedThresholds = []string{fmt.Sprintf("http_req_duration: p(95) < %s", q.slo)}
	}
	return r, nil
}

// cappedGenerator wraps a runner with a load generator that runs out of
// VUs at some rate.
type cappedGenerator struct {
	Runner
	maxVUs float64 // in-flight iterations the generator can hold
}

func (g cappedGenerator) RunStep(ctx context.Context, s Step) (StepResult, error) {
	r, err := g.Runner.RunStep(ctx, s)
	if err != nil {
		return r, err
	}
	if g.maxVUs > 0 && r.Concurrency > g.maxVUs {
		// Iterations beyond what the VUs can carry are dropped; the rest
		// look fast, so the step would pass on the generator's behalf.
		delivered := r.Throughput * g.maxVUs / r.Concurrency
		r.Dropped = int64((s.Rate - delivered) * s.Hold.Seconds())
		r.Throughput, r.Concurrency, r.Passed, r.FailedThresholds = delivered, g.maxVUs, true, nil
	}
	return r, nil
}

// busyHost wraps a runner on a host that something else keeps busy at
// times. A disturbed run shows it in the generator's own measurements and,
// unless keepVerdict, fails, as latency timed from the intended start does
// when the generator starts iterations late.
type busyHost struct {
	Runner
	kind        string  // "lag", "cpu", "steal", "diagnosis" or "starved": what the measurements show
	first       bool    // the first run at each rate is disturbed
	from        float64 // every run at or above this rate is disturbed; 0: none
	keepVerdict bool    // a disturbed run keeps the server's verdict
	runs        map[float64]int
}

func (b *busyHost) RunStep(ctx context.Context, s Step) (StepResult, error) {
	r, err := b.Runner.RunStep(ctx, s)
	if err != nil {
		return r, err
	}
	if b.runs == nil {
		b.runs = map[float64]int{}
	}
	b.runs[s.Rate]++
	if !(b.first && b.runs[s.Rate] == 1) && !(b.from > 0 && s.Rate >= b.from) {
		return r, nil
	}
	switch b.kind {
	case "lag":
		r.LagP99 = 300 * time.Millisecond
	case "cpu":
		r.GeneratorCPU = 0.98
	case "steal":
		r.HostKnown, r.HostCPU, r.HostSteal = true, 0.99, 0.3
	case "diagnosis": // the search's own figures are quiet; the step's diagnosis is not
		r.Diagnosis = "The generator's host was short of CPU from 0:02: its threads waited for a CPU 38× as long as they ran; the numbers are not the target's"
		r.Mean += 2 * time.Second // far past any limit, even less twice the lag
	case "starved": // other processes took the target's CPU; the generator kept up
		r.Starved = "App CPU taken by other processes from 0:02: its CPUs 100% busy, 83.3% by the host's other processes, 16.7% by itself"
		r.Mean += 2 * time.Second // far past any limit, even less twice the lag
	}
	if !b.keepVerdict {
		r.P95 += 300 * time.Millisecond
		r.P99 += 300 * time.Millisecond
		r.Passed, r.FailedThresholds = false, []string{"http_req_duration: p(95) < 50ms (the host's doing)"}
	}
	return r, nil
}

// scripted returns its results in turn, whatever rate is asked for.
type scripted struct {
	results []StepResult
	n       int
}

func (s *scripted) RunStep(_ context.Context, st Step) (StepResult, error) {
	r := s.results[min(s.n, len(s.results)-1)]
	s.n++
	r.Rate = st.Rate
	return r, nil
}

// countingRunner records the rates asked for.
type countingRunner struct {
	Runner
	rates []float64
}

func (c *countingRunner) RunStep(ctx context.Context, s Step) (StepResult, error) {
	c.rates = append(c.rates, s.Rate)
	return c.Runner.RunStep(ctx, s)
}

// failingRunner fails to run a step past a rate.
type failingRunner struct {
	Runner
	above float64
}

func (f failingRunner) RunStep(ctx context.Context, s Step) (StepResult, error) {
	if s.Rate > f.above {
		return StepResult{}, fmt.Errorf("target unreachable")
	}
	return f.Runner.RunStep(ctx, s)
}

// byRate answers each rate with what at returns for it.
type byRate func(rate float64) StepResult

func (b byRate) RunStep(_ context.Context, s Step) (StepResult, error) {
	r := b(s.Rate)
	r.Rate = s.Rate
	return r, nil
}
