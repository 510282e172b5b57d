// Package capacity finds the highest arrival rate a system sustains within
// its SLO: a breakpoint search. It raises the rate step by step until a
// step fails the SLO, then bisects between the last passing and the first
// failing rate within a time budget. It knows nothing of how a step is run
// — a Runner does that — so the algorithm is tested against simulated
// servers of known capacity.
//
// A step whose requests failed past the error budget fails, whatever its
// thresholds say (a counter-only SLO passes a dead target): errors are
// not capacity. A first step where every request failed ends the search.
//
// A step is only evidence about the system while the load generator keeps
// up. A step whose own measurements show a busy host (scheduling lag, the
// generator's CPU, CPU stolen by the hypervisor) is not judged but run
// again, a bounded number of times; only when every attempt finds the host
// busy does the search stop, saying the host could not generate the load.
// Iterations dropped by a generator that is otherwise idle mean its VU
// ceiling is too low, which no retry changes: the search stops at once.
package capacity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// Step is one rate to hold.
type Step struct {
	Rate float64       // iterations (arrivals) per second
	Hold time.Duration // how long to hold it
}

// StepResult is what one step measured. Rate is in iterations per second,
// what the search raises; Throughput in requests (gRPC calls, sessions:
// Config.Unit) per second, what the target completed: an iteration of
// several requests makes them differ.
type StepResult struct {
	Rate           float64       // offered, iterations/s
	Throughput     float64       // completed during the hold, per second of Config.Unit
	P95, P99, Mean time.Duration // request durations over the step
	ErrorRate      float64       // failed / requests
	Requests       int64         // requests the step sent
	Dropped        int64         // iterations due that found no free VU
	GeneratorCPU   float64       // fraction of usable cores
	LagP99         time.Duration // the generator's scheduling lag
	// Stall is the longest its goroutines waited, runnable, for a CPU (the
	// highest per-second p99 of the step): how long a response that had
	// arrived could wait to be read.
	Stall            time.Duration
	HostCPU          float64  // busy fraction of all the host's cores over the step, from /proc/stat
	HostSteal        float64  // fraction of the host's CPU time stolen by the hypervisor
	HostKnown        bool     // HostCPU and HostSteal were measured
	Passed           bool     // every threshold of the SLO held
	FailedThresholds []string // which did not, e.g. `http_req_duration: p(95) < 50ms`
	Concurrency      float64  // mean requests in flight (Little's law: throughput × mean)
	// Diagnosis is what the step's own diagnosis says made its figures the
	// generator's or its host's, not the target's (a wait for a CPU, late
	// starts, a busy host); "" when it says nothing of the kind.
	Diagnosis string
	// Starved is what the step's diagnosis says of the target's CPU taken
	// by the host's other processes while the target used little of what
	// it may use (target-host-busy): the target was starved, so the step
	// measured the host, not the target's limit; "" when it says nothing
	// of the kind.
	Starved string `json:",omitempty"`
	// PoolBelowMax says, for a step that dropped iterations, that its VU
	// pool never reached max_vus, and DropWhy what held it (the run's own
	// notice): raising max_vus would change nothing.
	PoolBelowMax bool   `json:",omitempty"`
	DropWhy      string `json:",omitempty"`
	// GeneratorHeld says loadlens held its own VU pool during the step (its
	// CPU used up or taken, or its schedule behind): with drops past the
	// limit, the generator was the queue, and the target's shortfall and
	// latency cannot be told from the responses its VUs had yet to read.
	GeneratorHeld bool `json:",omitempty"`
	// Offered, Completed and HoldDropped are the iterations the hold's
	// seconds offered, completed and dropped; IterationMean is how long an
	// iteration took in the hold's quickest second, its length without a
	// queue: what tells a target that fell behind (behind.go).
	// Offered is 0 when the step's seconds did not say.
	Offered, Completed, HoldDropped int64         `json:"-"`
	IterationMean                   time.Duration `json:"-"`
	// Service is how long the target held a request without a queue or
	// the generator's lateness: the lowest median of a hold second in which
	// it answered nine in ten or more. An arrival no later than that
	// raised what the target held no higher than on time (burst.go); 0
	// when no second said.
	Service time.Duration `json:"-"`
	// TimedOut is how many of the step's requests got no complete answer
	// within their timeout, and Timeout the shortest timeout of the test's
	// steps (plan.ShortestTimeout): each waited at least that long, which the
	// generator's lag and stall explain only when they are near it
	// (timedout.go).
	TimedOut int64         `json:",omitempty"`
	Timeout  time.Duration `json:",omitempty"`
	// Seconds are the step's errors and the generator's bursts second by
	// second from the hold's start (Seconds[i] is its second i), from which
	// the search tells the target's own errors from those a burst could
	// explain (burst.go) and how late the hold's last arrivals came
	// (behind.go); none: no error is told apart.
	Seconds []Second `json:"-"`
}

// Second is one second of a step: the errors the target answered in it and
// the arrivals the generator released late, which a target limiting its
// rate or the requests it holds may refuse when they come at once.
type Second struct {
	Answered int64 // requests that ended in the second with an error the target answered: a status, a refused connection
	// Late is the iterations of the second that started a gap between
	// arrivals (1/rate) or more late, by how late (a lag histogram's
	// buckets, each by its lower bound): those came with others.
	Late []Lateness
	// Wait is the second's scheduling latency p99 of the generator's
	// goroutines: an iteration that started on time may wait as long for a
	// CPU before it sends, and the arrivals due meanwhile with it.
	Wait time.Duration
	// Lag is the second's scheduling lag p99: how late its iterations
	// started, which the hold's last seconds carry past its end.
	Lag time.Duration
	// Iterations and IterationMean are the iterations that ended in the
	// second and their mean length: whether the hold ended with a steady
	// queue or a growing one (behind.go).
	Iterations    int64
	IterationMean time.Duration
}

// Lateness is how many iterations of a second started at least By late.
type Lateness struct {
	By time.Duration
	N  int64
}

// Runner runs one step against the system.
type Runner interface {
	RunStep(ctx context.Context, s Step) (StepResult, error)
}

// Config is how a search proceeds; zero fields take the defaults.
type Config struct {
	StartRate float64 // the first step's rate, iterations/s; required
	// RequestsPerIteration is how many requests one iteration sends at the
	// test's mix of scenarios: iterations/s × it is requests/s; default 1.
	RequestsPerIteration float64
	Factor               float64       // each raise multiplies the rate; default 1.5 unless Increment is set
	Increment            float64       // or: each raise adds this
	Hold                 time.Duration // per step; required
	MaxRate              float64       // never go above; 0: no limit but MaxSteps
	Budget               time.Duration // total hold time of all steps; 0: no limit
	Precision            float64       // bisection stops when failing − passing ≤ this × failing; default 0.05
	MaxCPU               float64       // generator CPU limit as a fraction of usable cores; default 0.85
	MaxLag               time.Duration // generator scheduling lag p99 limit; default 100ms, or LatencyLimit/4 when lower
	MaxSteal             float64       // CPU stolen from the host as a fraction of its time; default 0.1
	MaxDropped           float64       // dropped iterations as a fraction of the step's arrivals; default 0.001
	// MaxErrorRate is the error budget: a step whose requests failed more
	// often fails, whatever its thresholds say; default 0.01 (k6's usual
	// http_req_failed rate<0.01). Callers set it to the SLO's own budget.
	MaxErrorRate float64
	KneeFactor   float64       // the knee is where p95 passes this × its low-load value; default 1.5
	MaxSteps     int           // a bound on the number of steps run, retries included; default 100
	MaxRetries   int           // runs of a step again after a busy host; default 2; -1: none
	RetryPause   time.Duration // wait before a retry, for a burst on the host to pass; default 2s
	// LatencyLimit is the SLO's latency threshold, if it has one. Latency
	// is timed from the intended start, so scheduling lag adds to it: lag
	// above a quarter of the limit could decide the verdict on its own.
	LatencyLimit time.Duration
	// Latency is the metric the steps' P95, P99 and Mean are of, the SLO's
	// latency in the test's protocol (grpc_req_duration, ws_reply_time);
	// "" or http_req_duration: every request's duration.
	Latency string `json:",omitempty"`
	// Unit is what the target completes, a step's throughput counts and
	// RequestsPerIteration are of: requests, gRPC calls, sessions
	// (units.ForProtocols of the test's steps); zero: requests.
	Unit units.Unit `json:",omitzero"`
	// Percentile is the SLO's highest latency percentile (95 for p(95));
	// 0 when it has none. A step must hold enough requests for it (thin.go).
	Percentile float64
	// Progress, if set, is told of every run of a step as soon as it is
	// judged, retries included, so a caller can show the search as it goes.
	Progress func(Record) `json:"-"`
}

// Phase says why a step was run.
type Phase string

// The phases of a search.
const (
	Raise  Phase = "raise"  // raising the rate until the SLO fails
	Bisect Phase = "bisect" // narrowing between the last pass and the first failure
)

// Record is one run of a step in a search.
type Record struct {
	StepResult
	Phase      Phase  // why the step was run
	Attempt    int    // 1 for the first run of a rate, 2… for its retries
	Busy       string // how the host was too busy for the figures to describe the system; "" when it was not
	Saturation string // why the generator's figures are not trusted (iterations dropped); "" when they are
	Retried    bool   // this run was not judged: the host was busy, and the rate was run again
	// Stands says why a failure on a busy host was judged the target's all
	// the same, in words a report states before the busy host: its errors
	// past what the generator's late arrivals explain (ownErrors: "it
	// answered …"), or its latency past the limit beyond the lag and stall
	// (targetOwn: "its mean latency … past the latency limit …"). "" for any
	// other run; LatencyStands's words in a capacity.json of an earlier build.
	Stands string `json:",omitempty"`
	Judged bool   // the run's pass or failure counted in the search
}

// Clean reports whether the step's figures describe the system alone: the
// host was not busy and the generator dropped nothing past its limit.
func (r Record) Clean() bool { return r.Busy == "" && r.Saturation == "" && !r.Retried }

// StopReason says why a search ended.
type StopReason string

// The reasons a search ends.
const (
	Converged          StopReason = "converged"           // bisected to the precision
	MaxRateReached     StopReason = "max rate reached"    // the SLO held up to MaxRate
	BudgetSpent        StopReason = "time budget spent"   // no time for another step
	GeneratorSaturated StopReason = "generator saturated" // the generator's VU ceiling, not the system, was the limit
	HostBusy           StopReason = "host too busy"       // every attempt at a rate found the generator's host busy
	StepLimit          StopReason = "step limit reached"  // MaxSteps steps were run
	Interrupted        StopReason = "interrupted"         // the context ended
	StepError          StopReason = "step failed to run"  // the Runner returned an error
	NothingPassed      StopReason = "nothing passed"      // the SLO failed even at a tenth of the start rate
	TargetFailed       StopReason = "target failed"       // every request of the first step failed
)

// Result is the outcome of a search. It is valid, as far as the search
// went, even when Search also returns an error.
type Result struct {
	Config        Config   // with defaults filled in
	Steps         []Record // every step, in the order run
	Highest       float64  // the highest rate that passed with a trusted generator, iterations/s; 0 if none
	LowestFailing float64  // the lowest rate that failed, iterations/s; 0 if none
	// HighestRequests is Highest in requests (calls, sessions: Config.Unit)
	// per second: what its step completed, never more than it offered
	// (× RequestsPerIteration); what estimate divides a load by.
	HighestRequests float64
	FirstFailure    []string // the thresholds that failed at the first failing step
	Knee            *Knee    // nil when latency did not climb or too few steps
	USL             *USLFit  // nil unless the fit explains the data (see USLNote)
	USLNote         string   // why no fit is shown, e.g. "too few points for a scalability fit (…)"
	Thin            string   // the boundary's steps held too few requests for the SLO's percentile (thin.go); "" when not
	Retries         int      // runs of a step that were not judged because the host was busy
	// Unjudged is the lowest rate above Highest (and below LowestFailing)
	// that was run but never judged, every run of it on a busy host: the
	// capacity is at least Highest, and not determined above it; 0: none.
	Unjudged   float64    `json:",omitempty"`
	Stop       StopReason // why the search ended
	StopDetail string     // the stop in words, with figures
}

// Search runs a breakpoint search with r.
func Search(ctx context.Context, cfg Config, r Runner) (Result, error) {
	cfg, err := withDefaults(cfg)
	if err != nil {
		return Result{}, err
	}
	s := &search{cfg: cfg, runner: r, res: Result{Config: cfg}}
	err = s.run(ctx)
	s.res.HighestRequests = highestCompleted(s.res.Steps, s.res.Highest, cfg.RequestsPerIteration)
	s.res.Unjudged = unjudgedAbove(s.res.Steps, s.res.Highest, s.res.LowestFailing)
	s.res.Knee = findKnee(s.res.Steps, cfg.KneeFactor, cfg.MaxErrorRate, s.res.LowestFailing)
	s.res.USL, s.res.USLNote = fitSteps(s.res.Steps, cfg.MaxErrorRate, cfg.Unit)
	s.res.Thin = thinNote(&s.res)
	return s.res, err
}

// Check reports why c cannot be searched with, as Search would, so that a
// caller can refuse bad flags before it runs or writes anything.
func Check(c Config) error {
	_, err := withDefaults(c)
	return err
}

// withDefaults fills in defaults and rejects a config that cannot work.
func withDefaults(c Config) (Config, error) {
	var errs []error
	if c.RequestsPerIteration < 0 {
		errs = append(errs, fmt.Errorf("the requests per iteration %v cannot be negative", c.RequestsPerIteration))
	}
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
	if c.Increment < 0 || c.MaxRate < 0 || c.Budget < 0 || c.Precision < 0 || c.MaxCPU < 0 || c.MaxLag < 0 || c.MaxSteal < 0 ||
		c.MaxDropped < 0 || c.MaxErrorRate < 0 || c.MaxErrorRate > 1 || c.MaxSteps < 0 || c.MaxRetries < -1 || c.RetryPause < 0 || c.LatencyLimit < 0 {
		errs = append(errs, errors.New("limits cannot be negative, nor the error budget above 1"))
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
	c.RequestsPerIteration = orFloat(c.RequestsPerIteration, 1)
	c.Precision = orFloat(c.Precision, 0.05)
	c.MaxCPU = orFloat(c.MaxCPU, 0.85)
	c.MaxDropped = orFloat(c.MaxDropped, 0.001)
	c.MaxErrorRate = orFloat(c.MaxErrorRate, 0.01)
	c.KneeFactor = orFloat(c.KneeFactor, 1.5)
	c.MaxSteal = orFloat(c.MaxSteal, 0.1)
	if c.MaxLag == 0 {
		c.MaxLag = 100 * time.Millisecond
		if c.LatencyLimit > 0 {
			c.MaxLag = min(c.MaxLag, c.LatencyLimit/4)
		}
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 100
	}
	switch c.MaxRetries {
	case 0:
		c.MaxRetries = 2
	case -1:
		c.MaxRetries = 0
	}
	if c.RetryPause == 0 {
		c.RetryPause = 2 * time.Second
	}
	return c, nil
}

func orFloat(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// Counts is what the search's test counted (Unit): a capacity.json of an
// earlier build names none, and its gRPC or WebSocket search is known by
// the latency it judged (grpc_req_duration: calls); else requests.
func (c Config) Counts() units.Unit {
	if c.Unit != (units.Unit{}) {
		return c.Unit
	}
	if p, _, ok := strings.Cut(c.Latency, "_"); ok && c.Latency != "http_req_duration" {
		return units.ForProtocol(p)
	}
	return units.Requests
}

// highestCompleted is what the step that set the highest sustainable rate
// completed, per second, capped at what it offered: the headline and
// estimate must not claim throughput the target did not deliver (a search
// read "90.2 iterations/s, 180 req/s" beside a table whose step completed
// 177). Steps of an older runner that measured no throughput count as
// offered.
func highestCompleted(steps []Record, highest, perIteration float64) float64 {
	offered := highest * perIteration
	done := 0.0
	for _, st := range steps {
		if st.Passed && st.Judged && st.Rate == highest && st.Throughput > 0 {
			done = max(done, st.Throughput)
		}
	}
	if done == 0 {
		return offered
	}
	return min(done, offered)
}

// unjudgedAbove is the lowest rate between the highest pass and the lowest
// failure whose every run was left unjudged on a busy host, or 0: a search
// that ends there (its budget spent, say) has not found the boundary. A
// pass flattered by drops on an idle generator is the VU ceiling's, judged
// apart (GeneratorSaturated).
func unjudgedAbove(steps []Record, highest, lowestFailing float64) float64 {
	judged := map[float64]bool{}
	for _, st := range steps {
		judged[st.Rate] = judged[st.Rate] || st.Judged || st.Busy == ""
	}
	low := 0.0
	for rate, j := range judged {
		if !j && rate > highest && (lowestFailing == 0 || rate < lowestFailing) && (low == 0 || rate < low) {
			low = rate
		}
	}
	return low
}
