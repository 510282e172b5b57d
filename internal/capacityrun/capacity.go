package capacityrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/proc"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// CapacityConfig is what `loadlens capacity` needs.
type CapacityConfig struct {
	Plan       *plan.Plan      // its arrival-rate scenarios are scaled to each step's rate, keeping their mix
	Search     capacity.Config // start rate, factor, hold, limits
	ResultsDir string          // parent of the search's directory
	Out        io.Writer       // one line per step, then the outcome
	Args       []string
	Version    string
	Store      string // a shared history store (postgres://…) to record the search in as it ends; "": the results folder's only
}

// CapacityResult is how a search ended.
type CapacityResult struct {
	Dir      string
	Result   capacity.Result
	ExitCode int
}

// Capacity searches for the highest rate the target sustains within the
// test's thresholds. Every step is a run of its own, kept under one
// directory with capacity.json and capacity.html beside them.
func Capacity(ctx context.Context, cfg CapacityConfig) (CapacityResult, error) {
	if err := checkCapacityPlan(cfg.Plan, cfg.Search.Hold); err != nil {
		return CapacityResult{ExitCode: app.ExitBadInput}, err
	}
	search := searchConfig(cfg)
	// Flags that cannot work are bad usage: refused before a step runs or
	// a file is written.
	if err := capacity.Check(search); err != nil {
		return CapacityResult{ExitCode: app.ExitBadInput}, fmt.Errorf("%w: %w", app.ErrUsage, err)
	}
	if cfg.Store != "" {
		if err := app.CheckStore(ctx, cfg.Store); err != nil {
			return CapacityResult{ExitCode: app.ExitRunFailed}, fmt.Errorf("--store: %w", err)
		}
	}
	parent := cfg.ResultsDir
	if parent == "" {
		parent = app.DefaultResults
	}
	start := time.Now()
	dir, err := app.MakeRunDir(parent, "capacity-"+cfg.Plan.Name, start)
	if err != nil {
		return CapacityResult{ExitCode: app.ExitRunFailed}, err
	}
	fmt.Fprint(cfg.Out, units.Wrap(fmt.Sprintf("capacity search for %s: steps of %s each, rates in iterations/s (%s each); SLO: %s%s", cfg.Plan.Name,
		cfg.Search.Hold, search.Unit.Quantity(cfg.Plan.RequestsPerIteration()), threshold.SLOText(cfg.Plan.Thresholds),
		latencyNote(search.Latency)), units.Columns, "", "  "))
	runner := &stepRunner{cfg: cfg, dir: dir, latency: search.Latency}
	search.Progress = progressLine(cfg.Out, search.Unit)
	res, serr := capacity.Search(ctx, search, runner)
	out := CapacityResult{Dir: dir, Result: res}
	why := runner.firstFailureFindings(res)
	if err := writeCapacityFiles(dir, cfg.Plan, res, why); err != nil && serr == nil {
		serr = err
	}
	fmt.Fprintln(cfg.Out)
	if err := report.WriteCapacityText(cfg.Out, res); err != nil && serr == nil {
		serr = err
	}
	writeWhy(cfg.Out, res, why)
	fmt.Fprint(cfg.Out, "\n"+report.PathLine("steps and report", filepath.Join(dir, "capacity.html")))
	out.ExitCode, serr = searchExitCode(ctx.Err(), serr, res)
	if err := recordSearch(ctx, cfg, dir, start, res, out.ExitCode); err != nil && serr == nil {
		out.ExitCode, serr = app.ExitRunFailed, err // asked for and not done: the job must know
	}
	return out, serr
}

// searchConfig is cfg.Search with what the flags left unset taken from
// the test: its latency threshold, its unit, its error budget.
func searchConfig(cfg CapacityConfig) capacity.Config {
	search := cfg.Search
	if search.Latency == "" {
		search.Latency = threshold.LatencyMetric(cfg.Plan.Thresholds)
	}
	if search.Unit == (units.Unit{}) {
		search.Unit = planUnit(cfg.Plan)
	}
	if search.LatencyLimit == 0 {
		search.LatencyLimit = threshold.LatencyLimit(cfg.Plan.Thresholds)
	}
	if search.Percentile == 0 {
		search.Percentile = threshold.LatencyPercentile(cfg.Plan.Thresholds)
	}
	if search.MaxErrorRate == 0 {
		search.MaxErrorRate = threshold.ErrorBudget(cfg.Plan.Thresholds)
	}
	if search.RequestsPerIteration == 0 {
		search.RequestsPerIteration = cfg.Plan.RequestsPerIteration()
	}
	return search
}

// checkCapacityPlan refuses tests the search cannot scale: it needs at
// least one open-model scenario, and a closed-model one would blur what
// each step offered.
func checkCapacityPlan(p *plan.Plan, hold time.Duration) error {
	arrivals := 0
	for _, s := range p.Scenarios {
		switch s.Load.Model {
		case plan.ArrivalRate:
			arrivals++
		default:
			return fmt.Errorf("capacity: scenario %s uses the %s model; a capacity search scales arrival-rate scenarios only, so the offered load is known", s.Name, s.Load.Model)
		}
	}
	if arrivals == 0 {
		return errors.New("capacity: the test has no arrival-rate scenario to scale")
	}
	if len(p.Thresholds) == 0 {
		return errors.New("capacity: the test has no thresholds, so no step could fail; add an SLO such as http_req_duration: [\"p(95) < 800ms\"]")
	}
	return checkSessions(p, hold)
}

// stepRunner runs each step of a search as a run of the scaled plan.
type stepRunner struct {
	cfg      CapacityConfig
	dir      string
	latency  string // the metric a step's p95, p99 and mean are read from; "": every request's duration
	n        int
	findings [][]diagnose.Finding // per step, in the order run
}

// RunStep holds one rate and judges it on the test's thresholds.
func (s *stepRunner) RunStep(ctx context.Context, step capacity.Step) (capacity.StepResult, error) {
	s.n++
	p := plan.Scale(s.cfg.Plan, step.Rate, step.Hold)
	p.Name = fmt.Sprintf("step-%02d-%s-per-s", s.n, strconv.FormatFloat(math.Round(step.Rate*100)/100, 'f', -1, 64)) // a directory name, not a figure
	host := proc.NewHostMeter(proc.StatPath)
	in, _, err := app.Execute(ctx, app.RunConfig{Plan: p, ResultsDir: s.dir, Out: io.Discard, Quiet: true, Args: s.cfg.Args, Version: s.cfg.Version})
	if in == nil {
		return capacity.StepResult{}, err
	}
	if err != nil {
		return capacity.StepResult{}, fmt.Errorf("step %d: %w", s.n, err)
	}
	if ctx.Err() != nil {
		return capacity.StepResult{}, ctx.Err()
	}
	r := stepResult(in, step, s.latency)
	r.Timeout = p.ShortestTimeout()
	r.PoolBelowMax, r.DropWhy = poolBelowMax(p, in)
	if h := host.Sample(); h.OK && h.CPUs > 0 {
		r.HostCPU, r.HostSteal, r.HostKnown = h.Busy/float64(h.CPUs), h.Steal/float64(h.CPUs), true
	}
	s.findings = append(s.findings, in.Findings)
	return r, nil
}

// progressLine returns what prints each run of a step as the search
// judges it, saying when the host was too busy and the step is run again.
func progressLine(out io.Writer, unit units.Unit) func(capacity.Record) {
	n, width := 0, max(8, utf8.RuneCountInString(unit.PerSecond()))
	return func(r capacity.Record) {
		n++
		verdict := "pass"
		switch {
		case r.Retried:
			verdict = fmt.Sprintf("not judged: the host was busy (%s); running it again (try %d)", r.Busy, r.Attempt+1)
		case r.Busy != "" && !r.Judged:
			verdict = "not judged: the host was busy (" + r.Busy + "); no retries left"
		case r.Busy != "" && r.Passed:
			verdict = "pass, on a busy host (" + r.Busy + ")"
		case r.Busy != "" && r.Stands != "":
			verdict = "FAIL, the target's: " + r.Stands + "; the host was busy too (" + r.Busy + ")"
		case r.Busy != "":
			verdict = "FAIL, on a busy host but past the latency limit even less twice the lag and stall (" + r.Busy + ")"
		case !r.Passed:
			verdict = "FAIL"
		}
		if n == 1 {
			fmt.Fprintf(out, stepColumns+"  %s\n", "step", "iter/s", width, unit.PerSecond(), "p95", "errors", "dropped", "gen CPU", "lag p99", "verdict")
		}
		row := fmt.Sprintf(stepColumns, strconv.Itoa(n), units.Number(r.Rate), width, units.Number(r.Throughput), units.Duration(r.P95),
			units.Percent(r.ErrorRate), units.Count(r.Dropped), units.Share(r.GeneratorCPU), units.Duration(r.LagP99))
		if utf8.RuneCountInString(row)+2+utf8.RuneCountInString(verdict) <= units.Columns {
			fmt.Fprintf(out, "%s  %s\n", row, verdict)
			return
		}
		fmt.Fprint(out, row+"\n"+units.Wrap(verdict, units.Columns, "        ", "        ")) // a long verdict under its row
	}
}

// stepColumns lays out a step's figures in the columns of the search's
// progress, which fit units.Columns beside a short verdict; the
// throughput's is as wide as its unit's name (sessions/s), at least 8.
const stepColumns = "  %4s  %9s  %*s  %8s  %7s  %8s  %7s  %8s"

// stepResult sums up one step's run for the search, its latency read
// from the SLO's latency metric (threshold.LatencyMetric).
func stepResult(in *report.Input, step capacity.Step, latency string) capacity.StepResult {
	tot := in.Run.Total()
	var failed, dropped int64
	for _, f := range tot.Failures {
		failed += f
	}
	for _, sc := range in.Run.Scenarios {
		dropped += sc.Dropped
	}
	r := capacity.StepResult{Rate: step.Rate, Throughput: holdThroughput(in.Run.Series, tot.Requests, step.Hold), Dropped: dropped,
		Passed: in.Passed(), Requests: tot.Requests}
	r.Diagnosis = distrusted(in.Findings) // the step's own diagnosis may say its figures are not the target's
	r.Starved = starved(in.Findings)      // or that other processes took the target's CPU
	if tot.Requests > 0 {
		r.ErrorRate = float64(failed) / float64(tot.Requests)
	}
	r.TimedOut = tot.Failures[sample.Timeout]
	if h := tot.Duration; h != nil && h.Count() > 0 {
		r.P95, r.P99, r.Mean = h.Quantile(95), h.Quantile(99), h.Mean()
		r.Concurrency = r.Throughput * r.Mean.Seconds() // requests (sessions) in flight, whatever the SLO's latency
	}
	if latency != "" && latency != "http_req_duration" {
		r.P95, r.P99, r.Mean = observeLatency(in.Run, latency)
	}
	r.Offered, r.Completed, r.HoldDropped, r.IterationMean = holdIterations(in.Run.Series, step.Hold)
	r.Stall, r.GeneratorHeld = longestStall(in.Series), heldByGenerator(in.Series)
	r.Seconds, r.Service = stepSeconds(in, step.Rate), serviceTime(in.Run.Series, step.Hold)
	lag := threshold.Threshold{Metric: "scheduler_lag", Agg: threshold.Percentile, P: 99}
	if v, ok := in.Run.Observe(&lag); ok {
		r.LagP99 = time.Duration(v * float64(time.Millisecond))
	}
	if len(in.GeneratorCPU) > 0 {
		var sum float64
		for _, c := range in.GeneratorCPU {
			sum += c
		}
		r.GeneratorCPU = sum / float64(len(in.GeneratorCPU)) / generatorCores(in.Series, float64(runtime.GOMAXPROCS(0)))
	}
	for i, res := range in.Results {
		if !res.Pass {
			r.FailedThresholds = append(r.FailedThresholds, res.Key+": "+res.Expr+" ("+report.Observed(&in.Thresholds[i], res)+")")
		}
	}
	return r
}

// holdThroughput is the requests completed per second during the hold.
// The run waits for the requests in flight when the hold ends, so the
// run's whole count would make an overloaded step seem to complete all it
// was offered; the seconds of the hold count only what completed in them.
func holdThroughput(secs []metrics.Second, total int64, hold time.Duration) float64 {
	n := int(hold / time.Second)
	if n == 0 || len(secs) < n {
		return float64(total) / hold.Seconds()
	}
	var done int64
	for _, s := range secs {
		if s.Sec >= 0 && s.Sec < n {
			done += s.Requests
		}
	}
	return float64(done) / float64(n)
}

// holdIterations sums the iterations the hold's whole seconds offered,
// completed and dropped, and the lowest mean length of a second's
// iterations (before a queue lengthened them); offered is 0 when a run.db
// of an earlier build kept no offered counts.
func holdIterations(secs []metrics.Second, hold time.Duration) (offered, completed, dropped int64, quickest time.Duration) {
	n := int(hold / time.Second)
	for _, s := range secs {
		if s.Sec < 0 || s.Sec >= n {
			continue
		}
		var done int64
		var weighted float64
		for _, sc := range s.PerScenario {
			offered += sc.Offered
			done += sc.Iterations
			dropped += sc.Dropped
			weighted += float64(sc.Iterations) * float64(sc.IterationMean)
		}
		completed += done
		if mean := time.Duration(weighted / float64(max(done, 1))); done > 0 && (quickest == 0 || mean < quickest) {
			quickest = mean
		}
	}
	return offered, completed, dropped, quickest
}

// firstFailureFindings returns the diagnosis of the first judged step
// that failed the SLO: what the system ran out of at the boundary. A run
// retried because the host was busy says nothing about the system.
func (s *stepRunner) firstFailureFindings(res capacity.Result) []diagnose.Finding {
	for i, st := range res.Steps {
		if !st.Passed && st.Judged && i < len(s.findings) {
			return s.findings[i]
		}
	}
	return nil
}

// writeCapacityFiles keeps the search's outcome beside its steps.
func writeCapacityFiles(dir string, p *plan.Plan, res capacity.Result, why []diagnose.Finding) error {
	b, err := json.MarshalIndent(struct {
		capacity.Result
		FirstFailureFindings []diagnose.Finding
		Units                map[string]string // what each rate counts, for a reader of the file
	}{res, why, capacityUnits(res.Config.Unit)}, "", "  ")
	if err != nil {
		return fmt.Errorf("capacity.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "capacity.json"), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("capacity.json: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "capacity.html"))
	if err != nil {
		return fmt.Errorf("capacity.html: %w", err)
	}
	defer f.Close()
	return report.WriteCapacityHTML(f, res, p.Name, threshold.SLOLatency(p.Thresholds))
}

// capacityUnits names the unit of capacity.json's rates (the search raises
// iterations per second, the target completes requests, gRPC calls or
// sessions: u, Config.Unit) and of its durations (nanoseconds).
func capacityUnits(u units.Unit) map[string]string {
	u = u.Or()
	rate, flight := u.PerSecond(), u.Many+" in flight"
	return map[string]string{
		"Config.StartRate": "iterations/s", "Config.Increment": "iterations/s", "Config.MaxRate": "iterations/s",
		"Highest": "iterations/s", "LowestFailing": "iterations/s", "Steps.Rate": "iterations/s",
		"Knee.Rate": "iterations/s", "Knee.NextRate": "iterations/s",
		"HighestRequests": rate, "Steps.Throughput": rate, "Knee.Throughput": rate,
		"USL.Lambda": rate + " per " + u.One + " in flight", "USL.PeakThroughput": rate,
		"Steps.Concurrency": flight, "USL.PeakConcurrency": flight,
		// Durations are Go's time.Duration, whole nanoseconds; a reader of an
		// older file, which had no entry for them, reads the same numbers.
		"Config.Hold": ns, "Config.Budget": ns, "Config.MaxLag": ns, "Config.RetryPause": ns, "Config.LatencyLimit": ns,
		"Steps.P95": ns, "Steps.P99": ns, "Steps.Mean": ns, "Steps.LagP99": ns, "Steps.Stall": ns, "Steps.Timeout": ns,
		"Knee.P95": ns, "Knee.Base": ns, "Knee.Limit": ns, "Knee.NextP95": ns,
	}
}

// ns is capacity.json's unit of a duration.
const ns = "ns"

// longestStall is the highest per-second p99 of how long loadlens's
// goroutines waited, runnable, for a CPU: what a busy host could add to
// reading a response that had arrived.
func longestStall(set series.Set) time.Duration {
	var most float64
	for _, s := range set.Find(diagnose.GeneratorStall) {
		for _, p := range s.Points {
			most = max(most, p.Value)
		}
	}
	return time.Duration(most * float64(time.Second))
}

// generatorCores is the cores the generator could use over a step: the
// median of the capacity the run recorded (a container's quota where one
// held it, which GOMAXPROCS rounds up), else gomaxprocs.
func generatorCores(set series.Set, gomaxprocs float64) float64 {
	var vs []float64
	for _, s := range set.Find(diagnose.GeneratorCapacity) {
		for _, p := range s.Points {
			if p.Value > 0 {
				vs = append(vs, p.Value)
			}
		}
	}
	if len(vs) == 0 {
		return gomaxprocs
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

// heldByGenerator reports whether loadlens held its own VU pool during the
// step, for its CPU or its schedule (loadlens_vu_pool_held's reason, as
// the diagnosis reads it): drops then are the generator's queue. It reads
// the run's series, so a recorded run.db says it as a live step does.
func heldByGenerator(set series.Set) bool {
	for _, s := range set.Find(diagnose.GeneratorPoolHeld) {
		if r := s.Label("reason"); r != "generator_cpu" && r != "generator_behind" {
			continue
		}
		for _, p := range s.Points {
			if p.Value > 0 {
				return true
			}
		}
	}
	return false
}
