package compare

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// synth describes a synthetic run: its load per second and its server.
type synth struct {
	seed    uint64
	model   string    // "arrival-rate" or "vus"
	load    []float64 // requests per second (two thirds to the first endpoint); VUs for "vus"
	slow    float64   // latency multiplier; 0 means 1
	errProb float64   // chance a request fails
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

// build makes the run and its snapshots, and a Window that merges the
// snapshots of a range of seconds exactly, as the app does from run.db.
func (s synth) build() (*metrics.Run, func(first, last int) (*metrics.Run, error)) {
	layout := synthLayout(s.model)
	rng := rand.New(rand.NewPCG(s.seed, s.seed^0x9e3779b97f4a7c15))
	slow := s.slow
	if slow == 0 {
		slow = 1
	}
	run := metrics.NewRun(layout)
	var snaps []*metrics.Snapshot
	for sec, level := range s.load {
		snap := metrics.NewSnapshot(sec, layout)
		n := int64(math.Round(level))
		if s.model == "vus" {
			// A closed model: the rate follows from the users and the latency.
			n = int64(math.Round(level * 10 / slow))
			snap.Scenarios[0].VUs = int64(level)
		}
		first := int64(math.Round(float64(n) * 2 / 3))
		for e, median := range []float64{10, 20} {
			reqs := first
			if e == 1 {
				reqs = n - first
			}
			es := &snap.Endpoints[e]
			for range reqs {
				d := time.Duration(median * slow * math.Exp(0.4*rng.NormFloat64()) * float64(time.Millisecond))
				if es.Duration == nil {
					es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
				}
				es.Duration.Record(d)
				es.Waiting.Record(d / 2)
				es.Requests++
				failed := rng.Float64() < s.errProb
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
		snap.Scenarios[0].Iterations = n
		run.Add(snap)
		snaps = append(snaps, snap)
	}
	window := func(first, last int) (*metrics.Run, error) {
		w := metrics.NewRun(layout)
		for _, sn := range snaps {
			if sn.Second >= first && sn.Second <= last {
				w.Add(sn)
			}
		}
		return w, nil
	}
	return run, window
}

// input builds a compare.Input named name.
func (s synth) input(name string) Input {
	run, window := s.build()
	return Input{Name: name, Run: run, Window: window}
}
