package app

import (
	"context"
	"errors"
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
	ResultsDir  string          // parent of the run directory; "" means DefaultResults
	Segment     plan.Segment    // the part of the test to run; zero: all of it
	Out         io.Writer       // live line and summary
	TTY         bool            // Out is a terminal
	Quiet       bool            // no live line
	SummaryJSON string          // also write summary.json here
	JUnit       string          // also write JUnit XML here
	SummaryMD   string          // also write a Markdown summary here
	Dashboard   DashboardConfig // where to serve the live dashboard; the zero value serves none
	NoMetrics   bool            // count requests only: no per-second metrics, run.db or dashboard (to measure their cost)
	Args        []string        // the command line, kept in run.db
	Version     string
}

// RunResult says how a run ended.
type RunResult struct {
	Dir       string
	Status    string
	Passed    bool
	ExitCode  int
	Report    string // report.html's path; "" when it was not written
	ReportErr error  // why report.html could not be written
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
	if res.ReportErr != nil {
		fmt.Fprintf(cfg.Out, "  report: not written: %v\n", res.ReportErr)
	} else {
		fmt.Fprintf(cfg.Out, "  report: %s\n", res.Report)
	}
	return res, err
}

// execute runs a plan and writes everything about it into a new run
// directory (run.db, summary.json, report.html and the CI outputs asked
// for) without printing the summary. The input is nil when the run could
// not start.
func execute(ctx context.Context, cfg RunConfig) (*report.Input, RunResult, error) {
	p := cfg.Plan
	start := time.Now().Add(engine.PrepareLead) // the engine makes the VUs and their connections before the clock starts
	parent := cfg.ResultsDir
	if parent == "" {
		parent = DefaultResults
	}
	host, _ := os.Hostname()
	in := &report.Input{Name: p.Name, Version: cfg.Version, Start: start, Run: metrics.NewRun(p.Layout), Thresholds: p.Thresholds,
		Host: host, CPUs: runtime.NumCPU(), Args: cfg.Args, TestFile: p.File, TestSource: p.Source, BodyCaps: bodyCaps(p)}
	var dash *dashboardFeed
	if cfg.Dashboard.Addr != "" {
		var err error
		if dash, err = startDashboard(cfg.Dashboard, in, plannedLength(p)); err != nil {
			return nil, RunResult{ExitCode: ExitRunFailed}, err
		}
		fmt.Fprintf(cfg.Out, "dashboard: %s (live while the run lasts)\n", dash.d.URL())
		if cfg.Dashboard.Token == "" && dash.d.Token() != "" {
			fmt.Fprintln(cfg.Out, "dashboard: it can be reached from other machines, so it asks for the token in this URL (choose one with LOADLENS_DASHBOARD_TOKEN)")
		}
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
		Extra: map[string]string{"thresholds": encodeThresholds(p.Thresholds), "segment": cfg.Segment.String(), "go": runtime.Version(),
			"body_caps": encodeBodyCaps(in.BodyCaps)},
	})
	if err != nil {
		dash.close()
		return nil, RunResult{Dir: dir, ExitCode: ExitRunFailed}, err
	}
	defer w.Close()

	r := &runner{cfg: cfg, dir: dir, start: start, store: w, dash: dash, cpu: newCPUMeter(), stall: newStallMeter(),
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

	if err := r.obs.writeErr(); err != nil {
		r.writeFailed(len(r.run.Series), err) // a scrape stored after the last second
	}

	status := StatusCompleted
	switch {
	case engErr != nil:
		status = StatusFailed
		r.notice(engErr.Error())
	case r.lost != nil:
		status = StatusIncomplete
	case len(r.aborted) > 0:
		status = StatusAborted
	case ctx.Err() != nil:
		status = StatusInterrupted
	}
	if why := r.incomplete(); why != "" {
		r.notice(why + "; this summary covers the run up to the stop")
	}
	r.run.SetElapsed(end.Sub(start))
	results := evaluate(r.run, p.Thresholds, r.aborted)
	in.Status, in.End, in.Results, in.Notices = status, end, results, r.noticeTexts()
	diagnoseRun(in, r.obs.Set())
	res := RunResult{Dir: dir, Status: status, Passed: in.Passed()}
	res.ExitCode = exitCode(status, res.Passed)

	if err := w.Finish(store.Finish{End: end, Status: status, Elapsed: end.Sub(start), ExitCode: res.ExitCode, Thresholds: results}); err != nil && r.lost == nil {
		// run.db holds every second but not how the run ended: it reads back as incomplete, and so it says here.
		r.lost = &lostWrite{sec: -1, cause: storageCause(dir, err), err: err}
		in.Status, res.Status, res.ExitCode = StatusIncomplete, StatusIncomplete, exitCode(StatusIncomplete, res.Passed)
		in.Notices = append(in.Notices, r.incomplete())
	}
	reportPath := filepath.Join(dir, ReportFile)
	htmlErr := Outputs{HTML: reportPath}.write(in)
	if htmlErr == nil {
		res.Report = reportPath
	}
	res.ReportErr = htmlErr
	errs := []error{htmlErr, Outputs{JUnit: cfg.JUnit, SummaryMD: cfg.SummaryMD}.write(in)}
	dash.end(in, reportPath, htmlErr)
	errs = append(errs, writeSummaryJSON(in, filepath.Join(dir, "summary.json"), cfg.SummaryJSON))
	if r.lost != nil {
		errs = append([]error{r.lostError()}, errs...)
	}
	return in, res, errors.Join(errs...)
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
	stall      *stallMeter // the generator's own waits for a CPU, per second
	total      time.Duration
	stopEngine context.CancelFunc
	aborted    map[int]bool
	lost       *lostWrite // set when that failure made the results incomplete
	kept       int        // seconds written to run.db so far

	mu      sync.Mutex
	notices []notice
	shown   int
}

// notice is a message for the user, printed as it comes and, unless it is
// only news of the moment, kept for the summary.
type notice struct {
	text    string
	warning bool // the results are at stake
	passing bool // printed while the run lasts, not kept: the summary says it its own way
}

// lostWrite is the failure to write run.db that made the results incomplete.
type lostWrite struct {
	sec   int    // the second being written when it failed; -1: how the run ended
	kept  int    // the seconds run.db holds: 0 to kept-1
	cause string // why, when it can be told (see storageCause)
	err   error
}

// notice keeps a message from the engine; the collector prints it.
func (r *runner) notice(msg string) {
	r.mu.Lock()
	r.notices = append(r.notices, notice{text: msg})
	r.mu.Unlock()
}

// noticeTexts returns the notices the summary keeps.
func (r *runner) noticeTexts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, n := range r.notices {
		if !n.passing {
			out = append(out, n.text)
		}
	}
	return out
}

// writeFailed stops the load when run.db cannot take a second (the disk
// is full, say): what follows could not be kept, and a run whose results
// are lost should not go on loading the target. What was written stays.
// The collector calls it, and prints the warning the same second.
func (r *runner) writeFailed(sec int, err error) {
	if r.lost != nil {
		return
	}
	r.lost = &lostWrite{sec: sec, kept: r.kept, cause: storageCause(r.dir, err), err: err}
	msg := fmt.Sprintf("run.db could not be written at second %d", sec)
	if r.lost.cause != "" {
		msg += " because " + r.lost.cause
	}
	msg += fmt.Sprintf(": stopping the load; %s (%v)", keptSeconds(r.kept), err)
	r.mu.Lock()
	r.notices = append(r.notices, notice{text: msg, warning: true, passing: true})
	r.mu.Unlock()
	r.stopEngine()
}

// keptSeconds says which seconds run.db holds: the first n.
func keptSeconds(n int) string {
	switch n {
	case 0:
		return "run.db holds no second"
	case 1:
		return "run.db keeps second 0"
	}
	return fmt.Sprintf("run.db keeps seconds 0–%d", n-1)
}

// incomplete says why the results are incomplete; "" when nothing was lost.
func (r *runner) incomplete() string {
	if r.lost == nil {
		return ""
	}
	why := ""
	if r.lost.cause != "" {
		why = " because " + r.lost.cause
	}
	if r.lost.sec < 0 {
		return "the results are incomplete: run.db could not record how the run ended" + why
	}
	return fmt.Sprintf("the results are incomplete: run.db could not be written at second %d%s, so the load was stopped there; %s",
		r.lost.sec, why, keptSeconds(r.lost.kept))
}

// lostError is the error a run whose results are incomplete ends with.
func (r *runner) lostError() error {
	return fmt.Errorf("%s: %w", r.incomplete(), r.lost.err)
}

func (r *runner) showNotices() {
	r.mu.Lock()
	fresh := r.notices[r.shown:]
	r.shown = len(r.notices)
	r.mu.Unlock()
	for _, n := range fresh {
		r.line.Done()
		if n.warning {
			fmt.Fprintf(r.cfg.Out, "warning: %s\n", n.text)
		} else {
			fmt.Fprintf(r.cfg.Out, "note: %s\n", n.text)
		}
	}
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
	var held []poolHeld
	for i, g := range r.eng.Gauges(nil) {
		snap.Scenarios[i].VUs, snap.Scenarios[i].VUsMax = g.Active, g.Allocated
		vus += g.Active
		vusMax += g.Allocated
		if g.HeldBy != "" {
			held = append(held, poolHeld{scenario: r.cfg.Plan.Scenarios[i].Name, reason: g.HeldBy, size: g.HeldAt})
		}
	}
	r.run.Add(snap)
	if r.lost == nil {
		if err := r.store.WriteSecond(snap); err != nil {
			r.writeFailed(sec, err)
		} else {
			r.kept = sec + 1
		}
	}
	cpu, ok := r.cpu.sample()
	if !ok {
		cpu = -1
	}
	r.obs.add(selfSeries(sec, cpu, r.cpu.hostReading(), r.stall.sample(), held, &r.run.Series[len(r.run.Series)-1]))
	if err := r.obs.writeErr(); err != nil {
		r.writeFailed(sec, err) // the series share run.db, and the disk
	}
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
		if res := r.run.Evaluate(t); !res.Pass {
			r.aborted[i] = true
			r.notice(fmt.Sprintf("threshold %s %q failed at %ds with abort_on_fail (%s): stopping the run", t.Key, t.Expr, sec+1, report.Observed(t, res)))
			r.stopEngine()
		}
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
	var errs []error
	for _, p := range paths {
		if p != "" {
			errs = append(errs, writeFile(p, append(b, '\n')))
		}
	}
	return errors.Join(errs...)
}
