// Package capacity finds the highest arrival rate a system sustains within
// its SLO: a breakpoint search. It raises the rate step by step until a
// step fails the SLO, then bisects between the last passing and the first
// failing rate within a time budget. It knows nothing of how a step is run
// — a Runner does that — so the algorithm is tested against simulated
// servers of known capacity.
//
// A step is only evidence about the system while the load generator keeps
// up. When the generator's CPU, its scheduling lag or its dropped
// iterations pass their limits, the search stops and says so: past that
// point the numbers describe the generator.
package capacity

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Step is one rate to hold.
type Step struct {
	Rate float64       // arrivals per second
	Hold time.Duration // how long to hold it
}

// StepResult is what one step measured.
type StepResult struct {
	Rate, Throughput float64       // offered and completed per second
	P95, P99, Mean   time.Duration // request durations over the step
	ErrorRate        float64       // failed / requests
	Dropped          int64         // iterations due that found no free VU
	GeneratorCPU     float64       // fraction of usable cores
	LagP99           time.Duration // the generator's scheduling lag
	Passed           bool          // every threshold of the SLO held
	FailedThresholds []string      // which did not, e.g. `http_req_duration: p(95) < 50ms`
	Concurrency      float64       // mean requests in flight (Little's law: throughput × mean)
}

// Runner runs one step against the system.
type Runner interface {
	RunStep(ctx context.Context, s Step) (StepResult, error)
}

// Config is how a search proceeds; zero fields take the defaults.
type Config struct {
	StartRate  float64       // the first step's rate; required
	Factor     float64       // each raise multiplies the rate; default 1.5 unless Increment is set
	Increment  float64       // or: each raise adds this
	Hold       time.Duration // per step; required
	MaxRate    float64       // never go above; 0: no limit but MaxSteps
	Budget     time.Duration // total hold time of all steps; 0: no limit
	Precision  float64       // bisection stops when failing − passing ≤ this × failing; default 0.05
	MaxCPU     float64       // generator CPU limit as a fraction of usable cores; default 0.85
	MaxLag     time.Duration // generator scheduling lag p99 limit; default 100ms
	MaxDropped float64       // dropped iterations as a fraction of the step's arrivals; default 0.001
	KneeFactor float64       // the knee is where p95 passes this × its low-load value; default 1.5
	MaxSteps   int           // a bound on the number of steps; default 100
}

// Phase says why a step was run.
type Phase string

// The phases of a search.
const (
	Raise  Phase = "raise"  // raising the rate until the SLO fails
	Bisect Phase = "bisect" // narrowing between the last pass and the first failure
)

// Record is one step of a search.
type Record struct {
	StepResult
	Phase      Phase  // why the step was run
	Saturation string // why the generator's figures are not trusted; "" when they are
}

// StopReason says why a search ended.
type StopReason string

// The reasons a search ends.
const (
	Converged          StopReason = "converged"           // bisected to the precision
	MaxRateReached     StopReason = "max rate reached"    // the SLO held up to MaxRate
	BudgetSpent        StopReason = "time budget spent"   // no time for another step
	GeneratorSaturated StopReason = "generator saturated" // the generator, not the system, was the limit
	StepLimit          StopReason = "step limit reached"  // MaxSteps steps were run
	Interrupted        StopReason = "interrupted"         // the context ended
	StepError          StopReason = "step failed to run"  // the Runner returned an error
	NothingPassed      StopReason = "nothing passed"      // the SLO failed even at a tenth of the start rate
)

// Result is the outcome of a search. It is valid, as far as the search
// went, even when Search also returns an error.
type Result struct {
	Config        Config     // with defaults filled in
	Steps         []Record   // every step, in the order run
	Highest       float64    // the highest rate that passed with a trusted generator; 0 if none
	LowestFailing float64    // the lowest rate that failed; 0 if none
	FirstFailure  []string   // the thresholds that failed at the first failing step
	Knee          *Knee      // nil when latency did not climb or too few steps
	USL           *USLFit    // nil when there are too few points to fit
	Stop          StopReason // why the search ended
	StopDetail    string     // the stop in words, with figures
}

// Search runs a breakpoint search with r.
func Search(ctx context.Context, cfg Config, r Runner) (Result, error) {
	cfg, err := withDefaults(cfg)
	if err != nil {
		return Result{}, err
	}
	s := &search{cfg: cfg, runner: r, res: Result{Config: cfg}}
	err = s.run(ctx)
	s.res.Knee = findKnee(s.res.Steps, cfg.KneeFactor)
	s.res.USL = fitSteps(s.res.Steps)
	return s.res, err
}

// withDefaults fills in defaults and rejects a config that cannot work.
func withDefaults(c Config) (Config, error) {
	var errs []error
	if c.StartRate <= 0 {
		errs = append(errs, fmt.Errorf("the start rate %v must be above 0", c.StartRate))
	}
	if c.Hold <= 0 {
		errs = append(errs, fmt.Errorf("the hold per step %v must be above 0", c.Hold))
	}
	if c.Factor != 0 && c.Increment != 0 {
		errs = append(errs, errors.New("give a step factor or an increment, not both"))
	}
	if c.Factor != 0 && c.Factor <= 1 {
		errs = append(errs, fmt.Errorf("the step factor %v must be above 1", c.Factor))
	}
	if c.Increment < 0 || c.MaxRate < 0 || c.Budget < 0 || c.Precision < 0 || c.MaxCPU < 0 || c.MaxLag < 0 || c.MaxDropped < 0 || c.MaxSteps < 0 {
		errs = append(errs, errors.New("limits cannot be negative"))
	}
	if c.MaxRate > 0 && c.MaxRate < c.StartRate {
		errs = append(errs, fmt.Errorf("the max rate %v is below the start rate %v", c.MaxRate, c.StartRate))
	}
	if c.Budget > 0 && c.Budget < c.Hold {
		errs = append(errs, fmt.Errorf("the budget %v is shorter than one step's hold %v", c.Budget, c.Hold))
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("capacity: %w", errors.Join(errs...))
	}
	if c.Factor == 0 && c.Increment == 0 {
		c.Factor = 1.5
	}
	c.Precision = orFloat(c.Precision, 0.05)
	c.MaxCPU = orFloat(c.MaxCPU, 0.85)
	c.MaxDropped = orFloat(c.MaxDropped, 0.001)
	c.KneeFactor = orFloat(c.KneeFactor, 1.5)
	if c.MaxLag == 0 {
		c.MaxLag = 100 * time.Millisecond
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 100
	}
	return c, nil
}

func orFloat(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
