package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/otlp"
	"github.com/loadlens/loadlens/internal/output"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/store"
)

// collectGrace is how long after a second ends its measurements are taken:
// long enough for requests finishing at the boundary to be recorded.
const collectGrace = 100 * time.Millisecond

// RunConfig is what one run needs.
type RunConfig struct {
	Plan       *plan.Plan
	ResultsDir string       // parent of the run directory; "" means DefaultResults
	Segment    plan.Segment // the part of the test to run; zero: all of it
	Out        io.Writer    // live line and summary
	TTY        bool         // Out is a terminal
	Quiet      bool         // no live line
	// Live, when set, is given each second the figures the live line
	// shows, Quiet or not: a coordinator in a pod publishes them for `k8s attach`.
	Live        func(live.Status)
	SummaryJSON string          // also write summary.json here
	JUnit       string          // also write JUnit XML here
	SummaryMD   string          // also write a Markdown summary here
	Dashboard   DashboardConfig // where to serve the live dashboard; the zero value serves none
	NoMetrics   bool            // count requests only: no per-second metrics, run.db or dashboard (to measure their cost)
	Args        []string        // the command line, kept in run.db
	Version     string
	// Traces is an OTLP receiver the caller runs across several runs (the
	// demo's, which its shop exports to); nil: the test's observe.traces, if any.
	Traces    *otlp.Receiver
	Outs      []plan.Output     // --out: metrics outputs besides the test file's
	Tags      map[string]string // --tag: the run's labels, kept in run.db, summary.json and its history
	Store     string            // --store: a history store (postgres://…) to record the run in as it ends; "" only results/history.db
	Generator Generator         // makes the load elsewhere (agents); nil runs the engine here

	tuneOutputs func(*output.Config) // tests: other sinks, queue and bounds
	preparing   func()               // tests: called while the run is prepared, before its start is fixed
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
	if cfg.Store != "" {
		if err := checkShared(ctx, cfg.Store); err != nil {
			return RunResult{ExitCode: ExitRunFailed}, err
		}
	}
	in, res, err := Execute(ctx, cfg)
	if in == nil {
		return res, err
	}
	in.ExitCode = ExitAfter(res.ExitCode, err) // what the cli exits with: the summary's words about it must hold
	if werr := report.WriteText(cfg.Out, in); werr != nil && err == nil {
		err = werr
	}
	if res.ReportErr != nil {
		fmt.Fprintf(cfg.Out, "  report: not written: %v\n", res.ReportErr)
	} else {
		fmt.Fprint(cfg.Out, report.PathLine("report", res.Report))
	}
	ixErr, storeErr := recordHistory(ctx, cfg, in, res.ExitCode)
	if ixErr != nil {
		fmt.Fprintf(cfg.Out, "  history: not recorded: %v\n", ixErr) // the run is whole without it: `history` rebuilds the index
	}
	if storeErr != nil && err == nil {
		err = storeErr // asked for and not done: the job must know
	}
	return res, err
}

// Execute runs a plan and writes everything about it into a new run
// directory (run.db, summary.json, report.html and the CI outputs asked
// for) without printing the summary. The input is nil when the run could
// not start. Whatever it opened — the dashboard, run.db — it closes on
// every way out, in one place.
func Execute(ctx context.Context, cfg RunConfig) (*report.Input, RunResult, error) {
	var undo cleanups
	defer undo.run()
	r, err := open(ctx, cfg, &undo)
	if err != nil {
		return nil, RunResult{Dir: r.dir, ExitCode: ExitCodeOf(err)}, err // an output without its token is bad input
	}
	engErr := r.measure(ctx)
	interrupted := ctx.Err() != nil // before the teardown: an interrupt during it leaves the scenarios' verdict
	r.teardown(ctx)
	return r.conclude(ctx, engErr, interrupted)
}

// open prepares a run, then fixes its start: what may take time (the
// dashboard, the run directory, run.db, the trace receiver) is made first,
// so that however long that took, the engine still has engine.PrepareLead
// to prepare its VUs before the start (a start fixed first was once over
// before a slow run.db was made). Each thing is closed by undo. On an error
// the runner holds what was made so far (its directory, for the result).
func open(ctx context.Context, cfg RunConfig, undo *cleanups) (*runner, error) {
	r, err := prepareRun(cfg, undo)
	if err != nil {
		return r, err
	}
	if err := r.setup(ctx); err != nil {
		return r, err
	}
	return r, r.fixStart(undo)
}

// prepareRun makes a run's report input, the dashboard, the run directory,
// run.db and the trace receiver, all before the start is fixed: they carry
// the time preparing began until fixStart gives them the start.
func prepareRun(cfg RunConfig, undo *cleanups) (*runner, error) {
	p := cfg.Plan
	began := time.Now() // the run directory's name; the start until fixStart
	parent := cfg.ResultsDir
	if parent == "" {
		parent = DefaultResults
	}
	host, _ := os.Hostname()
	in := &report.Input{Name: p.Name, Version: cfg.Version, Start: began, Run: metrics.NewRun(p.Layout), Thresholds: p.Thresholds,
		Host: host, CPUs: runtime.NumCPU(), Args: cfg.Args, TestFile: p.File, TestSource: p.Source, BodyCaps: bodyCaps(p),
		Tags: cfg.Tags, Shape: loadShape(p, cfg.Segment)}
	r := &runner{cfg: cfg, in: in, meters: newSelfMeters(), run: in.Run, pacer: newPacer(),
		rec:  metrics.NewRecorder(p.Layout, 2*runtime.GOMAXPROCS(0)),
		line: live.NewLine(cfg.Out, cfg.TTY), total: plannedLength(p), aborted: map[int]bool{}}
	if err := checkOutputs(cfg); err != nil {
		return r, err
	}
	if err := r.serveDashboard(undo); err != nil {
		return r, err
	}
	dir, err := MakeRunDir(parent, p.Name, began)
	if err != nil {
		return r, err
	}
	r.dir, in.Dir = dir, dir
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{
		ID: filepath.Base(dir), Name: p.Name, Version: cfg.Version, Host: host, CPUs: in.CPUs,
		Start: began, Args: cfg.Args, TestFile: p.File, TestSource: p.Source, Layout: p.Layout,
		Extra: map[string]string{"thresholds": EncodeThresholds(p.Thresholds), "segment": cfg.Segment.String(), "go": runtime.Version(),
			"body_caps": encodeBodyCaps(in.BodyCaps), "trace_ui": p.Tracing.UI, holdsKey: encodeHolds(holdsOf(p)),
			tagsKey: encodeTags(cfg.Tags), shapeKey: in.Shape},
	})
	if err != nil {
		return r, err
	}
	undo.add(func() { _ = w.Close() })
	r.store = w
	w.SetPause(r.pause) // the collector's and the scraper's writes give the VUs the P between chunks
	if cfg.preparing != nil {
		cfg.preparing()
	}
	if r.traces, err = startTraces(p, cfg, filepath.Base(dir), 2*runtime.GOMAXPROCS(0), undo); err != nil {
		return r, err
	}
	r.obs = newObservations(w, r.notice)
	if r.dash != nil {
		r.dash.obs = r.obs // the dashboard shows the scraped series beside the client's view
	}
	return r, nil
}

// serveDashboard serves the run's live dashboard, when one is asked for,
// before the run directory is made: an address taken refuses the run.
func (r *runner) serveDashboard(undo *cleanups) error {
	cfg := r.cfg.Dashboard
	if cfg.Addr == "" {
		return nil
	}
	dash, err := startDashboard(cfg, r.in, r.total)
	if err != nil {
		return err
	}
	undo.add(dash.close)
	r.dash = dash
	fmt.Fprintf(r.cfg.Out, "dashboard: %s (live while the run lasts)\n", dash.d.URL())
	if cfg.Token == "" && dash.d.Token() != "" {
		fmt.Fprintln(r.cfg.Out, "dashboard: it can be reached from other machines, so it asks for the token in this URL (choose one with LOADLENS_DASHBOARD_TOKEN)")
	}
	return nil
}

// fixStart fixes the run's start now that what takes time is made, and
// makes what counts from it in memory: the engine (which prepares its VUs
// in the engine.PrepareLead before it), the scraper and the metrics
// outputs. With a Generator the agents are told the start it fixes.
func (r *runner) fixStart(undo *cleanups) error {
	cfg, p := r.cfg, r.cfg.Plan
	if cfg.Generator == nil { // before the start is fixed: finding the targets' processes reads every process's descriptors
		r.cgroups = newCgroupMeter(p.Observe.Targets, p.Origins, proc.ProcRoot, proc.CgroupRoot)
		r.own = newOwnQuota(proc.ProcRoot, proc.CgroupRoot, os.Getpid())
	}
	start := time.Now().Add(engine.PrepareLead)
	if cfg.Generator != nil {
		start = cfg.Generator.Start(time.Now(), r.notice)
	}
	r.start, r.in.Start = start, start
	if err := r.store.SetStart(start); err != nil {
		return err
	}
	if r.dash != nil {
		r.dash.setStart(r.in, r.total)
	}
	if cfg.Generator == nil { // agents send no trace ids: a distributed run keeps none
		r.eng = engine.New(p, r.traces.wrap(r.rec), engine.Options{Segment: cfg.Segment, Start: start, Notify: r.notice, Trace: r.traces.opts, Shared: r.shared})
	}
	var err error
	if r.scrape, err = scraping(p.Observe.Targets, start, r.obs); err != nil {
		return err
	}
	return r.startOutputs(undo)
}

// measure runs the engine to its end (the test's, Ctrl-C's, or a stop the
// collector asked for), with the collector and the scraper beside it, and
// returns the engine's error.
func (r *runner) measure(ctx context.Context) error {
	engCtx, stopEngine := context.WithCancel(ctx)
	defer stopEngine()
	r.stopEngine = stopEngine
	lead := part(r.eng.Run)
	if r.cfg.Generator != nil {
		lead = r.cfg.Generator.Run
	}
	engErr, _ := runBeside(engCtx, lead, r.collect, r.scrape) // the collector and scraper report their failures as notices
	if err := r.obs.writeErr(); err != nil {
		r.writeFailed(len(r.run.Series), err) // a scrape stored after the last second
	}
	return engErr
}

// conclude says how the run ended, judges and diagnoses it, records its
// end in run.db and writes its outputs; the dashboard shows the end.
// interrupted: the scenarios were stopped (Ctrl-C) before their end.
func (r *runner) conclude(ctx context.Context, engErr error, interrupted bool) (*report.Input, RunResult, error) {
	in, p := r.in, r.cfg.Plan
	status := StatusCompleted
	switch {
	case engErr != nil:
		status = StatusFailed
		r.notice(engErr.Error())
	case r.lost != nil:
		status = StatusIncomplete
	case len(r.aborted) > 0:
		status = StatusAborted
	case interrupted:
		status = StatusInterrupted
	case r.cfg.Generator != nil && lostAgent(r.cfg.Generator.Agents()):
		status = StatusPartial
	}
	if why := r.incomplete(); why != "" {
		r.notice(why + "; this summary covers the run up to the stop")
	}
	r.run.SetElapsed(r.end.Sub(r.start))
	stored, view := r.traces.finish(ctx, r.notice)
	in.Traces = view
	if err := r.store.WriteTraces(stored); err != nil {
		r.notice(err.Error()) // the run's figures are stored; only its trace ids are lost
	}
	results := evaluate(r.run, p.Thresholds, r.aborted)
	in.Outputs = r.closeOutputs() // before the notices are read: the last writes may warn
	// A distributed run's agents keep their own engines: their versions are not counted.
	if r.eng != nil {
		in.HTTPVersions = r.eng.HTTPVersions()
		in.Drops = r.eng.Drops()
		for _, n := range httpVersionNotes(p, in.HTTPVersions) {
			r.notice(n)
		}
	}
	in.Status, in.End, in.Results, in.Notices = status, r.end, results, r.noticeTexts()
	if r.cfg.Generator != nil {
		in.Agents = r.cfg.Generator.Agents()
	}
	diagnoseRun(in, r.obs.Set())
	res := RunResult{Dir: r.dir, Status: status, Passed: in.Passed()}
	res.ExitCode = exitCode(status, in.ThresholdsPassed())
	in.ExitCode = res.ExitCode

	// The notices and the outputs' losses are kept, as the figures are, so that `loadlens summary` says them again.
	fin := store.Finish{End: r.end, Status: status, Elapsed: r.end.Sub(r.start), ExitCode: res.ExitCode, Thresholds: results,
		Notices: in.Notices, Meta: map[string]string{}}
	if enc := encodeAgents(in.Agents); enc != "" {
		fin.Meta[agentsKey] = enc
	}
	if enc := encodeOutputs(in.Outputs); enc != "" {
		fin.Meta[outputsKey] = enc
	}
	if enc := encodeHTTPVersions(in.HTTPVersions); enc != "" {
		fin.Meta[httpVersionsKey] = enc
	}
	if err := r.store.Finish(fin); err != nil && r.lost == nil {
		// run.db holds every second but not how the run ended: it reads back as incomplete, and so it says here.
		r.lost = &lostWrite{sec: -1, cause: storageCause(r.dir, err), err: err}
		in.Status, res.Status, res.Passed = StatusIncomplete, StatusIncomplete, false
		res.ExitCode = exitCode(StatusIncomplete, in.ThresholdsPassed())
		in.ExitCode = res.ExitCode
		in.Notices = append(in.Notices, r.incomplete())
	}
	reportPath := filepath.Join(r.dir, ReportFile)
	htmlErr := Outputs{HTML: reportPath}.write(in)
	if htmlErr == nil {
		res.Report = reportPath
	}
	res.ReportErr = htmlErr
	errs := []error{htmlErr, Outputs{JUnit: r.cfg.JUnit, SummaryMD: r.cfg.SummaryMD}.write(in)}
	r.dash.end(in, reportPath, htmlErr)
	errs = append(errs, writeSummaryJSON(in, filepath.Join(r.dir, "summary.json"), r.cfg.SummaryJSON))
	if r.lost != nil {
		errs = append([]error{r.lostError()}, errs...)
	}
	return in, res, errors.Join(errs...)
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
			errs = append(errs, WriteFile(p, append(b, '\n')))
		}
	}
	return errors.Join(errs...)
}
