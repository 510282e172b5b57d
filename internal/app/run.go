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
	// Traces is an OTLP receiver the caller runs across several runs (the
	// demo's, which its shop exports to); nil: the test's observe.traces, if any.
	Traces    *otlp.Receiver
	Outs      []plan.Output // --out: metrics outputs besides the test file's
	Generator Generator     // makes the load elsewhere (agents); nil runs the engine here

	tuneOutputs func(*output.Config) // tests: other sinks, queue and bounds
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
	in.ExitCode = ExitAfter(res.ExitCode, err) // what the cli exits with: the summary's words about it must hold
	if werr := report.WriteText(cfg.Out, in); werr != nil && err == nil {
		err = werr
	}
	if res.ReportErr != nil {
		fmt.Fprintf(cfg.Out, "  report: not written: %v\n", res.ReportErr)
	} else {
		fmt.Fprint(cfg.Out, report.PathLine("report", res.Report))
	}
	return res, err
}

// execute runs a plan and writes everything about it into a new run
// directory (run.db, summary.json, report.html and the CI outputs asked
// for) without printing the summary. The input is nil when the run could
// not start. Whatever it opened — the dashboard, run.db — it closes on
// every way out, in one place.
func execute(ctx context.Context, cfg RunConfig) (*report.Input, RunResult, error) {
	var undo cleanups
	defer undo.run()
	r, err := open(cfg, &undo)
	if err != nil {
		return nil, RunResult{Dir: r.dir, ExitCode: ExitCodeOf(err)}, err // an output without its token is bad input
	}
	engErr := r.measure(ctx)
	return r.conclude(ctx, engErr)
}

// open prepares a run: its report input, the dashboard, the run
// directory, run.db, the engine, the collector and the scraper, each
// closed by undo. On an error the runner holds what was made so far (its
// directory, for the result).
func open(cfg RunConfig, undo *cleanups) (*runner, error) {
	p := cfg.Plan
	start := time.Now().Add(engine.PrepareLead) // the engine makes the VUs and their connections before the clock starts
	parent := cfg.ResultsDir
	if parent == "" {
		parent = DefaultResults
	}
	host, _ := os.Hostname()
	in := &report.Input{Name: p.Name, Version: cfg.Version, Start: start, Run: metrics.NewRun(p.Layout), Thresholds: p.Thresholds,
		Host: host, CPUs: runtime.NumCPU(), Args: cfg.Args, TestFile: p.File, TestSource: p.Source, BodyCaps: bodyCaps(p)}
	r := &runner{cfg: cfg, in: in, start: start, cpu: newCPUMeter(), stall: newStallMeter(), run: in.Run, pacer: newPacer(),
		rec:  metrics.NewRecorder(p.Layout, 2*runtime.GOMAXPROCS(0)),
		line: live.NewLine(cfg.Out, cfg.TTY), total: plannedLength(p), aborted: map[int]bool{}}
	if err := checkOutputs(cfg); err != nil {
		return r, err
	}
	if cfg.Generator != nil { // after what can refuse the run, since the agents start at the instant it fixes
		r.start = cfg.Generator.Start(start, r.notice)
		start, in.Start = r.start, r.start
	}
	if cfg.Dashboard.Addr != "" {
		dash, err := startDashboard(cfg.Dashboard, in, plannedLength(p))
		if err != nil {
			return r, err
		}
		undo.add(dash.close)
		r.dash = dash
		fmt.Fprintf(cfg.Out, "dashboard: %s (live while the run lasts)\n", dash.d.URL())
		if cfg.Dashboard.Token == "" && dash.d.Token() != "" {
			fmt.Fprintln(cfg.Out, "dashboard: it can be reached from other machines, so it asks for the token in this URL (choose one with LOADLENS_DASHBOARD_TOKEN)")
		}
	}
	dir, err := makeRunDir(parent, p.Name, start)
	if err != nil {
		return r, err
	}
	r.dir, in.Dir = dir, dir
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{
		ID: filepath.Base(dir), Name: p.Name, Version: cfg.Version, Host: host, CPUs: in.CPUs,
		Start: start, Args: cfg.Args, TestFile: p.File, TestSource: p.Source, Layout: p.Layout,
		Extra: map[string]string{"thresholds": encodeThresholds(p.Thresholds), "segment": cfg.Segment.String(), "go": runtime.Version(),
			"body_caps": encodeBodyCaps(in.BodyCaps), "trace_ui": p.Tracing.UI, holdsKey: encodeHolds(holdsOf(p))},
	})
	if err != nil {
		return r, err
	}
	undo.add(func() { _ = w.Close() })
	r.store = w
	w.SetPause(r.pause) // the collector's and the scraper's writes give the VUs the P between chunks
	if r.traces, err = startTraces(p, cfg, filepath.Base(dir), 2*runtime.GOMAXPROCS(0), undo); err != nil {
		return r, err
	}
	if cfg.Generator == nil { // agents send no trace ids: a distributed run keeps none
		r.eng = engine.New(p, r.traces.wrap(r.rec), engine.Options{Segment: cfg.Segment, Start: start, Notify: r.notice, Trace: r.traces.opts})
	}
	r.obs = newObservations(w, r.notice)
	if r.dash != nil {
		r.dash.obs = r.obs // the dashboard shows the scraped series beside the client's view
	}
	r.scrape, err = scraping(p.Observe.Targets, start, r.obs)
	if err != nil {
		return r, err
	}
	return r, r.startOutputs(undo)
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
func (r *runner) conclude(ctx context.Context, engErr error) (*report.Input, RunResult, error) {
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
	case ctx.Err() != nil:
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
			errs = append(errs, writeFile(p, append(b, '\n')))
		}
	}
	return errors.Join(errs...)
}
