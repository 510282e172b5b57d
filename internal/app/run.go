package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/store"
)

// collectGrace is how long after a second ends its measurements are taken:
// long enough for requests finishing at the boundary to be recorded.
const collectGrace = 100 * time.Millisecond

// RunConfig is what one run needs.
type RunConfig struct {
	Plan        *plan.Plan
	ResultsDir  string       // parent of the run directory; "" means DefaultResults
	Segment     plan.Segment // the part of the test to run; zero: all of it
	Out         io.Writer    // live line and summary
	TTY         bool         // Out is a terminal
	Quiet       bool         // no live line
	SummaryJSON string       // also write summary.json here
	JUnit       string       // also write JUnit XML here
	SummaryMD   string       // also write a Markdown summary here
	Dashboard   string       // serve the live dashboard on this address (port 0: a free one); "": none
	NoMetrics   bool         // count requests only: no per-second metrics, run.db or dashboard (to measure their cost)
	Args        []string     // the command line, kept in run.db
	Version     string
}

// RunResult says how a run ended.
type RunResult struct {
	Dir      string
	Status   string
	Passed   bool
	ExitCode int
}

// Run executes a plan, records it into a new run directory and prints its
// summary. Cancelling ctx (Ctrl-C) stops the run and still writes
// everything measured. The error is for failures around the run (the
// results directory, run.db); a failed threshold is not an error.
func Run(ctx context.Context, cfg RunConfig) (RunResult, error) {
	if cfg.NoMetrics {
		return runCountOnly(ctx, cfg)
	}
	in, res, err := execute(ctx, cfg)
	if in == nil {
		return res, err
	}
	if werr := report.WriteText(cfg.Out, in); werr != nil && err == nil {
		err = werr
	}
	fmt.Fprintf(cfg.Out, "  report: %s\n", filepath.Join(in.Dir, ReportFile))
	return res, err
}

// execute runs a plan and writes everything about it into a new run
// directory (run.db, summary.json, report.html and the CI outputs asked
// for) without printing the summary. The input is nil when the run could
// not start.
func execute(ctx context.Context, cfg RunConfig) (*report.Input, RunResult, error) {
	p := cfg.Plan
	start := time.Now()
	parent := cfg.ResultsDir
	if parent == "" {
		parent = DefaultResults
	}
	host, _ := os.Hostname()
	in := &report.Input{Name: p.Name, Version: cfg.Version, Start: start, Run: metrics.NewRun(p.Layout), Thresholds: p.Thresholds,
		Host: host, CPUs: runtime.NumCPU(), Args: cfg.Args, TestFile: p.File, TestSource: p.Source}
	var dash *dashboardFeed
	if cfg.Dashboard != "" {
		var err error
		if dash, err = startDashboard(cfg.Dashboard, in, plannedLength(p)); err != nil {
			return nil, RunResult{ExitCode: ExitRunFailed}, err
		}
		fmt.Fprintf(cfg.Out, "dashboard: %s (live while the run lasts)\n", dash.d.URL())
	}
	dir, err := makeRunDir(parent, p.Name, start)
	if err != nil {
		dash.close()
		return nil, RunResult{ExitCode: ExitRunFailed}, err
	}
	in.Dir = dir
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{
		ID: filepath.Base(dir), Name: p.Name, Version: cfg.Version, Host: host, CPUs: in.CPUs,
		Start: start, Args: cfg.Args, TestFile: p.File, TestSource: p.Source, Layout: p.Layout,
		Extra: map[string]string{"thresholds": encodeThresholds(p.Thresholds), "segment": cfg.Segment.String(), "go": runtime.Version()},
	})
	if err != nil {
		dash.close()
		return nil, RunResult{Dir: dir, ExitCode: ExitRunFailed}, err
	}
	defer w.Close()

	r := &runner{cfg: cfg, dir: dir, start: start, store: w, dash: dash, cpu: newCPUMeter(),
		rec:  metrics.NewRecorder(p.Layout, 2*runtime.GOMAXPROCS(0)),
		run:  in.Run,
		line: live.NewLine(cfg.Out, cfg.TTY), total: plannedLength(p), aborted: map[int]bool{}}
	engCtx, stopEngine := context.WithCancel(ctx)
	defer stopEngine()
	r.stopEngine = stopEngine
	r.eng = engine.New(p, r.rec, engine.Options{Segment: cfg.Segment, Start: start, Notify: r.notice})
	r.obs = newObservations(w, r.notice)
	if dash != nil {
		dash.obs = r.obs // the dashboard shows the scraped series beside the client's view
	}
	scrapeCtx, stopScraping := context.WithCancel(context.Background()) // Ctrl-C ends it with the engine, below
	defer stopScraping()
	waitScraping, err := startScraping(scrapeCtx, p.Observe.Targets, start, r.obs)
	if err != nil {
		dash.close()
		return nil, RunResult{Dir: dir, ExitCode: ExitRunFailed}, err
	}

	done := make(chan error, 1)
	go func() { done <- r.eng.Run(engCtx) }()
	engErr := r.collect(done)
	end := time.Now()
	stopScraping()
	waitScraping()
	r.line.Done()

	status := StatusCompleted
	switch {
	case engErr != nil:
		status = StatusFailed
		r.notice(engErr.Error())
	case len(r.aborted) > 0:
		status = StatusAborted
	case ctx.Err() != nil:
		status = StatusInterrupted
	}
	r.run.SetElapsed(end.Sub(start))
	results := evaluate(r.run, p.Thresholds, r.aborted)
	in.Status, in.End, in.Results, in.Notices = status, end, results, r.notices
	diagnoseRun(in, r.obs.Set())
	if r.obs.storeErr != nil && r.storeErr == nil {
		r.storeErr = r.obs.storeErr
	}
	res := RunResult{Dir: dir, Status: status, Passed: in.Passed()}
	res.ExitCode = exitCode(status, res.Passed)

	if err := w.Finish(store.Finish{End: end, Status: status, Elapsed: end.Sub(start), ExitCode: res.ExitCode, Thresholds: results}); err != nil {
		r.storeErr = err
	}
	reportPath := filepath.Join(dir, ReportFile)
	outErr := Outputs{HTML: reportPath, JUnit: cfg.JUnit, SummaryMD: cfg.SummaryMD}.write(in)
	dash.end(in, reportPath)
	if err := writeSummaryJSON(in, filepath.Join(dir, "summary.json"), cfg.SummaryJSON); err != nil {
		return in, res, err
	}
	if outErr != nil {
		return in, res, outErr
	}
	if r.storeErr != nil {
		return in, res, fmt.Errorf("run.db: %w", r.storeErr)
	}
	return in, res, nil
}

// runner is the state of one run's collector loop.
type runner struct {
	cfg        RunConfig
	dir        string
	start      time.Time
	store      *store.Writer
	rec        *metrics.Recorder
	run        *metrics.Run
	eng        *engine.Engine
	line       *live.Line
	dash       *dashboardFeed // nil without a dashboard
	obs        *observations  // scraped and self-observed series
	cpu        *cpuMeter
	total      time.Duration
	stopEngine context.CancelFunc
	aborted    map[int]bool
	storeErr   error

	mu      sync.Mutex
	notices []string
	shown   int
}

// notice keeps a message from the engine; the collector prints it.
func (r *runner) notice(msg string) {
	r.mu.Lock()
	r.notices = append(r.notices, msg)
	r.mu.Unlock()
}

// collect takes each second's measurements a little after it ends, until
// the engine returns; then it takes what is left and returns the engine's error.
func (r *runner) collect(done <-chan error) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for sec := 0; ; sec++ {
		timer.Reset(time.Until(r.start.Add(time.Duration(sec+1)*time.Second + collectGrace)))
		select {
		case <-timer.C:
			r.second(sec)
		case err := <-done:
			last := int(time.Since(r.start) / time.Second)
			for s := sec; s <= last; s++ {
				r.second(s)
			}
			return err
		}
	}
}

// second takes one second's snapshot and hands it to everything that wants it.
func (r *runner) second(sec int) {
	snap := r.rec.Collect(sec)
	var vus, vusMax int64
	for i, g := range r.eng.Gauges(nil) {
		snap.Scenarios[i].VUs, snap.Scenarios[i].VUsMax = g.Active, g.Allocated
		vus += g.Active
		vusMax += g.Allocated
	}
	r.run.Add(snap)
	if err := r.store.WriteSecond(snap); err != nil && r.storeErr == nil {
		r.storeErr = err // keep measuring; the summary still comes from memory
	}
	cpu, ok := r.cpu.sample()
	if !ok {
		cpu = -1
	}
	r.obs.add(selfSeries(sec, cpu, r.cpu.hostReading(), &r.run.Series[len(r.run.Series)-1]))
	r.checkAborts(sec)
	if r.dash != nil {
		r.dash.second(r.run, time.Duration(sec+1)*time.Second, cpu, r.aborted)
	}
	r.showNotices()
	if r.cfg.Quiet {
		return
	}
	last := r.run.Series[len(r.run.Series)-1]
	var dropped int64
	for _, s := range r.run.Scenarios {
		dropped += s.Dropped
	}
	errRate := 0.0
	if last.Requests > 0 {
		errRate = float64(last.Failed) / float64(last.Requests)
	}
	r.line.Update(live.Status{Elapsed: min(time.Duration(sec+1)*time.Second, time.Since(r.start)), Total: r.total, RPS: float64(last.Requests),
		P95: last.P95, ErrRate: errRate, VUs: vus, VUsMax: vusMax, Dropped: dropped})
}

// checkAborts stops the run when a threshold marked abort_on_fail fails,
// judged on the whole run so far, once its delay has passed.
func (r *runner) checkAborts(sec int) {
	elapsed := time.Duration(sec+1) * time.Second
	for i := range r.cfg.Plan.Thresholds {
		t := &r.cfg.Plan.Thresholds[i]
		if !t.AbortOnFail || elapsed < t.DelayAbortEval || r.aborted[i] {
			continue
		}
		r.run.SetElapsed(elapsed)
		if v, ok := r.run.Observe(t); ok && !t.Pass(v) {
			r.aborted[i] = true
			r.notice(fmt.Sprintf("threshold %s %q failed at %ds with abort_on_fail: stopping the run", t.Key, t.Expr, sec+1))
			r.stopEngine()
		}
	}
}

func (r *runner) showNotices() {
	r.mu.Lock()
	fresh := r.notices[r.shown:]
	r.shown = len(r.notices)
	r.mu.Unlock()
	for _, n := range fresh {
		r.line.Done()
		fmt.Fprintf(r.cfg.Out, "note: %s\n", n)
	}
}

// plannedLength is how long the test is planned to run, for the progress
// display. An iterations scenario's maximum duration is a bound, not a
// plan, so it counts only when nothing else gives a length.
func plannedLength(p *plan.Plan) time.Duration {
	var planned, bound time.Duration
	for _, s := range p.Scenarios {
		d := s.StartTime + s.Load.Duration()
		if s.Load.Model == plan.Iterations {
			bound = max(bound, d)
		} else {
			planned = max(planned, d)
		}
	}
	if planned == 0 {
		return bound
	}
	return planned
}

func writeSummaryJSON(in *report.Input, paths ...string) error {
	b, err := report.SummaryJSON(in)
	if err != nil {
		return fmt.Errorf("summary.json: %w", err)
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("summary: %w", err)
		}
	}
	return nil
}
