package cli

import (
	"context"
	"errors"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/capacityrun"
	"github.com/loadlens/loadlens/internal/comparerun"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/estimaterun"
	"github.com/loadlens/loadlens/internal/plan"
)

func capacityCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "capacity", "capacity <test.yaml> [flags]")
	var c capacity.Config
	fs.Float64Var(&c.StartRate, "start", 0, "first step's rate in iterations per second (default: a quarter of the test's peak rate)")
	fs.Float64Var(&c.Factor, "factor", 0, "each raise multiplies the rate by this (default 1.5)")
	fs.Float64Var(&c.Increment, "step", 0, "or: each raise adds this many iterations per second")
	fs.DurationVar(&c.Hold, "hold", 30*time.Second, "how long each step holds its rate")
	fs.Float64Var(&c.MaxRate, "max", 0, "never offer more iterations per second than this (default: no limit)")
	fs.DurationVar(&c.Budget, "budget", 10*time.Minute, "total hold time of all steps")
	fs.Float64Var(&c.Precision, "precision", 0, "stop bisecting when the gap is below this fraction (default 0.05)")
	fs.Float64Var(&c.MaxCPU, "max-cpu", 0, "stop when the generator uses more than this fraction of its cores (default 0.85)")
	results := fs.String("results", app.DefaultResults, "parent directory of the search's directory")
	store := fs.String("store", "", "also record the search in a shared history store (postgres://…) as it ends")
	p, _, code := testFileArg(e, fs, args, "capacity takes one test file whose thresholds are the SLO")
	if code != app.ExitOK {
		return code
	}
	if err := checkStore(*store); err != nil {
		return fail(e, err)
	}
	if c.StartRate == 0 {
		var peak float64
		for _, s := range p.Scenarios {
			peak += plan.PeakRate(&s.Load)
		}
		c.StartRate = max(1, peak/4)
	}
	e.watchStop()
	res, err := capacityrun.Capacity(ctx, capacityrun.CapacityConfig{Plan: p, Search: c, ResultsDir: *results, Out: e.stdout,
		Args: storedArgs(fs, e.args), Version: app.Version, Store: *store})
	if err != nil {
		fail(e, err)
		return app.ExitAfter(res.ExitCode, err)
	}
	return res.ExitCode
}

func compareCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "compare", "compare <baseline-run> <run> [<run>...] [flags]\n       loadlens compare <A1> <A2> [...] vs <B1> <B2> [...] [flags]\n       (each side's runs as replicates)")
	cfg := comparerun.CompareConfig{Out: e.stdout}
	var gates listFlag
	fs.StringVar(&cfg.Format, "format", "text", "text, md, json or html")
	fs.Float64Var(&cfg.Options.Alpha, "alpha", 0, "1 − the confidence of the intervals (default 0.05: 95 % intervals)")
	fs.Float64Var(&cfg.Options.LoadTolerance, "load-tolerance", 0, "how far the offered loads may differ and still compare fairly (default 0.10)")
	fs.Var(&gates, "fail-on-regression", "exit 99 when a run's change goes past this and is surely a change (significant, or its whole interval beyond it), for all endpoints or any one of them; exit 3 when none did but one cannot be judged (see --allow-not-judged); e.g. 'p(95) +10%', 'errors +1pp' or 'p(95){endpoint:\"GET /b\"} +10%' (repeatable)")
	fs.BoolVar(&cfg.AllowNotJudged, "allow-not-judged", false, "let a gate that cannot judge its change (too short a run, too few runs, a busy host) pass with a note (exit 0); by default it fails (exit 3, or 99 when another gate found a regression)")
	strict := fs.Bool("strict", false, "fail a gate that cannot judge its change: the default now, kept for old scripts")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if *strict && cfg.AllowNotJudged {
		return fail(e, usageErr("--strict and --allow-not-judged contradict each other: give one"))
	}
	cfg.Runs, cfg.Gates = pos, gates
	code, err := comparerun.Compare(cfg)
	if err != nil {
		if code == app.ExitBadInput {
			return fail(e, usageErr("%v", err))
		}
		fail(e, err)
	}
	return code
}

func estimateCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "estimate", "estimate [business numbers] [flags]")
	var in estimate.Input
	cfg := estimaterun.EstimateConfig{Out: e.stdout}
	var peakShare, instPrice, nodePrice, maxErrors string
	fs.Float64Var(&in.DAU, "dau", 0, "daily active users")
	fs.Float64Var(&in.VisitsPerUser, "visits", 0, "visits per user per day")
	fs.Float64Var(&in.RequestsPerVisit, "requests-per-visit", 0, "requests one visit sends (default 1)")
	fs.Float64Var(&in.RequestsPerDay, "requests-per-day", 0, "or: requests per day")
	fs.Float64Var(&in.PeakFactor, "peak-factor", 0, "peak rate = average × this")
	fs.StringVar(&peakShare, "peak-hour-share", "", "or: the share of a day's requests in its busiest hour, e.g. 12%")
	fs.Float64Var(&in.EventUsers, "event-users", 0, "an event: users taking part")
	fs.Float64Var(&in.RequestsPerUser, "requests-per-user", 0, "an event: requests each user sends")
	fs.DurationVar(&in.EventWindow, "window", 0, "an event: how long it lasts, e.g. 10m")
	fs.Float64Var(&in.RPS, "rps", 0, "or: a known rate per second")
	fs.Float64Var(&in.Users, "users", 0, "or: concurrent users (the rate follows from Little's law)")
	fs.Float64Var(&in.Headroom, "headroom", 0, "plan this factor above the peak, e.g. 1.4")
	fs.DurationVar(&in.ResponseTime, "response-time", 0, "R of Little's law N = X·(R + Z)")
	fs.DurationVar(&in.ThinkTime, "think-time", 0, "Z of Little's law")
	fs.Float64Var(&in.PerInstance, "per-instance", 0, "requests per second one instance sustains (req/s; calls/s or sessions/s for a gRPC or WebSocket/SSE test: the unit of the run or search it comes from)")
	fs.StringVar(&cfg.FromRun, "from-run", "", "or: a capacity search's highest rate, or a run's successful rate in its seconds within the SLO, in the unit the run counts (req/s; calls/s for gRPC, sessions/s for WebSocket/SSE) (docs/estimate.md)")
	fs.IntVar(&cfg.RunInst, "run-instances", 1, "instances that served --from-run")
	fs.Float64Var(&in.InstancesPerNode, "instances-per-node", 0, "instances that fit on one node")
	fs.StringVar(&instPrice, "instance-price", "", "price of one instance, e.g. '0.58 USD/h'")
	fs.StringVar(&nodePrice, "node-price", "", "price of one node, e.g. '9.53 USD/h'")
	fs.DurationVar(&in.Ramp, "ramp", 0, "starter test: ramp from 0 to the target (default 1m)")
	fs.DurationVar(&in.Hold, "hold", 0, "starter test: hold at the target (default 10m)")
	fs.DurationVar(&in.LatencyGoal, "latency-goal", 0, "the p95 threshold of the starter test and of --from-run's seconds (default 1s; for --from-run, the run's own)")
	fs.StringVar(&maxErrors, "max-errors", "", "the error-rate threshold of both, e.g. 1% (default 1%; for --from-run, the run's own)")
	fs.StringVar(&cfg.Write, "write", "", "also write a starter test file for the computed load (refused when the file exists)")
	fs.BoolVar(&cfg.Force, "force", false, "with --write: overwrite the file when it exists")
	fs.StringVar(&cfg.URL, "url", "", "the endpoint the starter test calls, e.g. http://127.0.0.1:8080/feed")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 0 {
		return fail(e, usageErr("estimate takes flags only; see `loadlens estimate -h`"))
	}
	if setFlags(fs)["headroom"] && in.Headroom == 0 { // 0 is also "not given" inside, so refused here
		return fail(e, usageErr("--headroom 0 is below 1: it multiplies the peak, so 1.4 plans 40%% above it and 1 plans none"))
	}
	for _, f := range []struct {
		flag, text string
		set        func(string) error
	}{
		{"--peak-hour-share", peakShare, func(s string) (err error) { in.PeakHourShare, err = estimate.ParseFraction(s); return }},
		{"--max-errors", maxErrors, func(s string) (err error) { in.MaxErrors, err = estimate.ParseFraction(s); return }},
		{"--instance-price", instPrice, func(s string) (err error) { in.InstancePrice, err = estimate.ParsePrice(s); return }},
		{"--node-price", nodePrice, func(s string) (err error) { in.NodePrice, err = estimate.ParsePrice(s); return }},
	} {
		if f.text == "" {
			continue
		}
		if err := f.set(f.text); err != nil {
			return fail(e, usageErr("%s: %v", f.flag, err))
		}
	}
	cfg.Input = in
	if err := estimaterun.Estimate(cfg); err != nil {
		if errors.Is(err, estimaterun.ErrNoSustainableRate) {
			return fail(e, err) // the run is the news, not how estimate was called: exit 1
		}
		return fail(e, usageErr("%v", err))
	}
	return app.ExitOK
}
