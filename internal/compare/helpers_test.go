package compare

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// synth describes a synthetic run of a service-time model: each second the
// server has a state — a slowness that drifts (an AR(1) process on its
// logarithm, φ = 0.7 from second to second, ±7 %), now and then a pause
// (GC, a lock) that stalls a share of the second's requests, a burst of
// errors that lasts a few seconds — and each request's duration is the endpoint's median service
// time times that slowness times a lognormal spread (σ = 0.4). The seconds
// of such a run depend on each other as a real server's do, which is what
// a comparison must not mistake for independent samples.
type synth struct {
	seed    uint64
	model   string    // "arrival-rate" or "vus"
	load    []float64 // requests per second (two thirds to the first endpoint); VUs for "vus"
	slow    float64   // service time multiplier; 0 means 1
	errProb float64   // chance a request fails, outside bursts
	think   float64   // closed model: think time per request in seconds; 0 means 50 ms
	medians []float64 // per endpoint median service time in ms; nil means 10 and 20
	runSlow float64   // sd of a slowness drawn once per run (a run-to-run difference); 0 for none
	iters   float64   // requests per iteration; 0 means 1
	drift   float64   // slowness added linearly over the run: 0.3 ends 30 % slower than it started
	phi     float64   // the slowness's persistence from second to second; 0 means 0.7
	innov   float64   // the slowness's innovation sd; 0 means 0.05
	lag     float64   // the load generator's scheduler lag in ms, recorded once a request; 0 for none
	stall   int       // 1 + the second whose every request is 30× slower (a GC pause, a cold cache); 0 for none
	addMs   float64   // milliseconds added to every request
}

func synthLayout(model string) sample.Layout {
	return sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "shop", Model: model}},
		Endpoints: []sample.EndpointInfo{
			{Scenario: 0, Name: "GET /products/{id}", Method: "GET"},
			{Scenario: 0, Name: "POST /cart", Method: "POST"},
		},
		Checks: []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: "status is 200"}},
	}
}

// ramp returns up seconds rising to level, hold seconds at it, then down
// seconds falling to 0.
func ramp(level float64, up, hold, down int) []float64 {
	var out []float64
	for i := 1; i <= up; i++ {
		out = append(out, level*float64(i)/float64(up+1))
	}
	for range hold {
		out = append(out, level)
	}
	for i := down; i >= 1; i-- {
		out = append(out, level*float64(i)/float64(down+1))
	}
	return out
}

// build makes the run and its snapshots.
func (s synth) build() (*metrics.Run, []*metrics.Snapshot) {
	layout := synthLayout(s.model)
	rng := rand.New(rand.NewPCG(splitmix(s.seed), splitmix(^s.seed)))
	slow := s.slow
	if slow == 0 {
		slow = 1
	}
	if s.runSlow > 0 {
		slow *= math.Exp(s.runSlow * rng.NormFloat64())
	}
	think := s.think
	if think == 0 {
		think = 0.05
	}
	medians := s.medians
	if medians == nil {
		medians = []float64{10, 20}
	}
	perIter := s.iters
	if perIter == 0 {
		perIter = 1
	}
	run := metrics.NewRun(layout)
	var snaps []*metrics.Snapshot
	state, burst := 0.0, 0
	for sec, level := range s.load {
		state = s.persistence()*state + s.innovation()*rng.NormFloat64()
		factor := slow * math.Exp(state) * (1 + s.drift*float64(sec)/float64(len(s.load)))
		pauseShare, pause := 0.0, 0.0
		if rng.Float64() < 0.02 {
			pauseShare, pause = 0.05+0.2*rng.Float64(), 10+40*rng.Float64()
		}
		if burst == 0 && rng.Float64() < 0.02 {
			burst = 3
		}
		errProb := s.errProb
		if burst > 0 {
			errProb, burst = 5*s.errProb, burst-1
		}
		snap := metrics.NewSnapshot(sec, layout)
		n := int64(math.Round(level))
		if s.model == "vus" {
			// A closed model: each VU's cycle is its think time plus the
			// mean duration, so the rate follows the server's state.
			meanMs := (2*medians[0] + medians[len(medians)-1]) / 3 * math.Exp(0.08) * factor
			n = int64(math.Round(level / (think + meanMs/1000)))
			snap.Scenarios[0].VUs = int64(level)
		}
		first := int64(math.Round(float64(n) * 2 / 3))
		for e := range layout.Endpoints {
			reqs := first
			if e == 1 {
				reqs = n - first
			}
			median := medians[min(e, len(medians)-1)]
			es := &snap.Endpoints[e]
			for range reqs {
				ms := median * factor * math.Exp(0.4*rng.NormFloat64())
				if rng.Float64() < pauseShare {
					ms += pause * slow
				}
				if sec == s.stall-1 {
					ms *= 30
				}
				ms += s.addMs
				d := time.Duration(ms * float64(time.Millisecond))
				if es.Duration == nil {
					es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
				}
				es.Duration.Record(d)
				es.Waiting.Record(d / 2)
				es.Requests++
				failed := rng.Float64() < errProb
				if failed {
					es.Failures[sample.HTTP5xx]++
				}
				if e == 0 {
					if failed {
						snap.Checks[0].Fails++
					} else {
						snap.Checks[0].Passes++
					}
				}
			}
		}
		snap.Scenarios[0].Iterations = int64(math.Round(float64(n) / perIter))
		if s.lag > 0 {
			snap.Scenarios[0].Lag = metrics.NewHist()
			for range n {
				snap.Scenarios[0].Lag.Record(time.Duration(s.lag * math.Exp(0.2*rng.NormFloat64()) * float64(time.Millisecond)))
			}
		}
		run.Add(snap)
		snaps = append(snaps, snap)
	}
	return run, snaps
}

// input builds a compare.Input named name.
func (s synth) input(name string) Input {
	run, snaps := s.build()
	return Input{Name: name, Run: run, Snapshots: func(fn func(*metrics.Snapshot) error) error {
		for _, sn := range snaps {
			if err := fn(sn); err != nil {
				return err
			}
		}
		return nil
	}}
}

// splitmix scrambles a seed, so that runs with neighbouring seeds draw
// unrelated streams.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newRand returns a generator for test data.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(splitmix(seed), splitmix(^seed))) }

func (s synth) persistence() float64 {
	if s.phi == 0 {
		return 0.7
	}
	return s.phi
}

func (s synth) innovation() float64 {
	if s.innov == 0 {
		return 0.05
	}
	return s.innov
}
