package cli

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/plan"
)

// urlOnlyFlags are the flags that describe a test and so make sense only
// in URL mode; a test file says these things itself.
var urlOnlyFlags = []string{"rate", "vus", "duration", "ramp", "max-vus", "method", "H", "body", "body-file", "timeout", "threshold", "name", "insecure"}

func runCmd(ctx context.Context, e *env, args []string) int {
	const usageLine = "run <test.yaml | URL> [flags]"
	fs := newFlagSet(e, "run", usageLine)
	var o plan.URLOptions
	var headers, thresholds, envs listFlag
	fs.Float64Var(&o.Rate, "rate", 0, "URL mode, open model: iterations per second")
	fs.IntVar(&o.VUs, "vus", 0, "URL mode, closed model: virtual users")
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "URL mode: how long to hold the load (after --ramp)")
	fs.DurationVar(&o.Ramp, "ramp", 0, "URL mode: ramp up from 0 over this long before the hold")
	fs.IntVar(&o.MaxVUs, "max-vus", 0, "URL mode, open model: VU ceiling (default: enough for every request to hit the timeout)")
	fs.StringVar(&o.Method, "method", "", "URL mode: HTTP method (default GET, or POST with a body)")
	fs.Var(&headers, "H", "URL mode: request header 'Name: value' (repeatable)")
	fs.StringVar(&o.Body, "body", "", "URL mode: request body")
	fs.StringVar(&o.BodyFile, "body-file", "", "URL mode: read the request body from this file")
	fs.DurationVar(&o.Timeout, "timeout", 0, "URL mode: request timeout (default 60s)")
	fs.Var(&thresholds, "threshold", "URL mode: threshold such as 'p(95)<800ms' or 'http_req_failed: rate<0.01' (repeatable)")
	fs.StringVar(&o.Name, "name", "", "URL mode: test name (default from the URL)")
	fs.BoolVar(&o.Insecure, "insecure", false, "URL mode: skip TLS certificate verification")
	results := fs.String("results", app.DefaultResults, "parent directory of run directories")
	summaryJSON := fs.String("summary-json", "", "also write summary.json to this file")
	var out outputFlags
	out.register(fs)
	quiet := fs.Bool("quiet", false, "no live progress line")
	noMetrics := fs.Bool("no-metrics", false, "count requests only, without per-second metrics, run.db or dashboard: for measuring what they cost")
	segment := fs.String("segment", "", "run only a segment of the test, e.g. 0:1/2 (for distributed runs)")
	fs.Var(&envs, "e", "KEY=VALUE environment variable for {{ env.KEY }} templates (repeatable)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("run takes one test file or URL; see `loadlens run -h`"))
	}
	var seg plan.Segment
	if *segment != "" {
		if seg, err = plan.ParseSegment(*segment); err != nil {
			return fail(e, usageErr("--segment: %v", err))
		}
	}
	target := pos[0]
	var p *plan.Plan
	if isURL(target) {
		o.URL, o.Headers, o.Thresholds = target, headers, thresholds
		p, err = plan.FromURL(o)
	} else {
		set := setFlags(fs)
		for _, f := range urlOnlyFlags {
			if set[f] {
				return fail(e, usageErr("--%s applies to URL mode; a test file sets this itself (see docs/test-format.md)", f))
			}
		}
		p, err = loadTestFile(target, envs)
	}
	if err != nil {
		return fail(e, err)
	}
	dash, err := out.dashboard()
	if err != nil {
		return fail(e, err)
	}
	res, err := app.Run(ctx, app.RunConfig{Plan: p, ResultsDir: *results, Segment: seg, Out: e.stdout, TTY: e.tty,
		Quiet: *quiet, NoMetrics: *noMetrics, SummaryJSON: *summaryJSON, JUnit: out.junit, SummaryMD: out.summaryMD, Dashboard: dash,
		Args: append([]string{"loadlens"}, e.args...), Version: app.Version})
	if err != nil {
		fail(e, err)
		return max(res.ExitCode, app.ExitRunFailed)
	}
	return res.ExitCode
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// loadTestFile parses a test file, with -e KEY=VALUE over the environment.
func loadTestFile(path string, envs []string) (*plan.Plan, error) {
	lookup, err := envLookup(envs)
	if err != nil {
		return nil, err
	}
	return plan.ParseFile(path, lookup)
}

// envLookup layers -e KEY=VALUE over the process environment.
func envLookup(pairs []string) (func(string) (string, bool), error) {
	over := map[string]string{}
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usageErr("-e %q: want KEY=VALUE", kv)
		}
		over[k] = v
	}
	return func(k string) (string, bool) {
		if v, ok := over[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}, nil
}
