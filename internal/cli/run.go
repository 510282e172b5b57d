package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/plan"
)

// urlOnlyFlags are the flags that describe a test and so make sense only
// in URL mode; a test file says these things itself.
var urlOnlyFlags = []string{"rate", "vus", "u", "duration", "d", "iterations", "i", "ramp", "max-vus", "method", "H", "body", "body-file", "timeout", "threshold", "name", "insecure",
	"graceful-stop", "max-redirects", "max-body", "allow-host", "arrival-slack"}

func runCmd(ctx context.Context, e *env, args []string) int {
	const usageLine = "run <test.yaml | URL> [flags]"
	fs := newFlagSet(e, "run", usageLine)
	var f runFlags
	f.register(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("run takes one test file or URL; see `loadlens run -h`"))
	}
	in, err := f.input(pos[0])
	if err != nil {
		return fail(e, err)
	}
	set := setFlags(fs)
	aliasFlags(set)
	if in.isURL {
		if err := f.urlOptions(e, set, in); err != nil {
			return fail(e, err)
		}
	}
	rc := app.RunConfig{ResultsDir: *f.results, Out: e.stdout, TTY: e.tty, Quiet: *f.quiet, SummaryJSON: *f.summaryJSON,
		Args: storedArgs(fs, e.args), Version: app.Version, Tags: in.tags, Store: *f.store}
	if f.dist.distributed() && in.stdin != nil {
		return fail(e, usageErr("a distributed run sends its agents a test file: write the test to a file rather than run -"))
	}
	if f.dist.distributed() {
		return runDistributedCmd(ctx, e, &f, in.target, in.isURL, set, in.lookup, rc)
	}
	p, err := f.plan(set, in)
	if err != nil {
		return fail(e, err)
	}
	if rc, err = f.out.runConfig(rc); err != nil {
		return fail(e, err)
	}
	rc.Plan, rc.Segment, rc.NoMetrics = p, in.seg, *f.noMetrics
	e.watchStop()
	res, err := app.Run(ctx, rc)
	if err != nil {
		fail(e, err)
		return app.ExitAfter(res.ExitCode, err)
	}
	return res.ExitCode
}

// runInput is what `loadlens run` read from its flags and its argument
// before building the plan.
type runInput struct {
	target string
	stdin  []byte // the test, when target is "-"
	isURL  bool
	tags   map[string]string
	seg    plan.Segment
	lookup func(string) (string, bool)
}

// input checks the flags that do not depend on the target's kind and reads
// the target (standard input for "-").
func (f *runFlags) input(target string) (runInput, error) {
	in := runInput{target: target}
	var err error
	if in.tags, err = history.ParseTags(f.tags); err != nil {
		return in, usageErr("%v", err)
	}
	if err := checkStore(*f.store); err != nil {
		return in, err
	}
	if *f.store != "" && *f.noMetrics {
		return in, usageErr("--store records a run's figures, which --no-metrics does not keep")
	}
	if *f.segment != "" {
		if in.seg, err = plan.ParseSegment(*f.segment); err != nil {
			return in, usageErr("--segment: %v", err)
		}
	}
	if in.lookup, err = envLookup(f.envs); err != nil {
		return in, err
	}
	if target == "-" {
		in.stdin, err = readStdin()
		return in, err
	}
	in.isURL, err = classifyTarget(target)
	return in, err
}

// urlOptions fills the URL mode's options from the flags.
func (f *runFlags) urlOptions(e *env, set map[string]bool, in runInput) error {
	o := &f.url
	if err := explicitZeros(set, o); err != nil {
		return err
	}
	if err := iterationFlags(set, o); err != nil {
		return err
	}
	o.URL, o.Headers, o.Thresholds, o.Env, o.Machine = in.target, f.headers, f.thresholds, in.lookup, machineFor(in.seg)
	f.lim.apply(set, o)
	if hasLiteralSpace(in.target) {
		fmt.Fprintln(e.stderr, "loadlens: note: the URL's spaces are sent percent-encoded, as %20")
	}
	return nil
}

// plan builds the run's plan from a URL and its options, or from the test
// file with the load flags overriding it.
func (f *runFlags) plan(set map[string]bool, in runInput) (*plan.Plan, error) {
	if in.isURL {
		return plan.FromURL(f.url)
	}
	ov, err := loadOverride(set, &f.url)
	if err != nil {
		return nil, err
	}
	if err := refuseURLFlags(set); err != nil {
		return nil, err
	}
	return parseTarget(in.seg, in.target, in.stdin, in.lookup, ov)
}

// runFlags are `loadlens run`'s flags.
type runFlags struct {
	url                       plan.URLOptions
	headers, thresholds, envs listFlag
	tags                      listFlag // --tag
	lim                       urlLimits
	results, summaryJSON      *string
	store                     *string // --store
	out                       outputFlags
	quiet, noMetrics          *bool
	segment                   *string
	dist                      distFlags
}

// register defines the flags on fs.
func (f *runFlags) register(fs *flag.FlagSet) {
	o := &f.url
	fs.Float64Var(&o.Rate, "rate", 0, "URL mode, open model: iterations per second")
	fs.IntVar(&o.VUs, "vus", 0, "URL mode, closed model: virtual users; with a test file and --duration or --iterations, every scenario's VUs (k6's shortcut)")
	fs.IntVar(&o.VUs, "u", 0, "--vus, as k6 writes it")
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "URL mode: how long to hold the load (after --ramp); with a test file, every scenario runs --vus VUs this long")
	fs.DurationVar(&o.Duration, "d", 10*time.Second, "--duration, as k6 writes it")
	fs.Int64Var(&o.Iterations, "iterations", 0, "run this many iterations in all, shared by --vus VUs (--duration bounds them); with a test file, in each scenario")
	fs.Int64Var(&o.Iterations, "i", 0, "--iterations, as k6 writes it")
	fs.DurationVar(&o.Ramp, "ramp", 0, "URL mode: ramp up from 0 over this long before the hold")
	fs.IntVar(&o.MaxVUs, "max-vus", 0, "URL mode, open model: VU ceiling (default: enough for every request to hit the timeout)")
	fs.StringVar(&o.Method, "method", "", "URL mode: HTTP method (default GET, or POST with a body)")
	fs.Var(&f.headers, "H", "URL mode: request header 'Name: value' (repeatable)")
	fs.StringVar(&o.Body, "body", "", "URL mode: request body")
	fs.StringVar(&o.BodyFile, "body-file", "", "URL mode: send this file's bytes as the request body (at most 64 MiB)")
	fs.DurationVar(&o.Timeout, "timeout", 0, "URL mode: request timeout (default 60s)")
	fs.Var(&f.thresholds, "threshold", "URL mode: threshold such as 'p(95)<800ms' or 'http_req_failed: rate<0.01' (repeatable)")
	fs.StringVar(&o.Name, "name", "", "URL mode: test name (default from the URL)")
	fs.BoolVar(&o.Insecure, "insecure", false, "URL mode: skip TLS certificate verification")
	f.lim.register(fs, o)
	f.results = fs.String("results", app.DefaultResults, "parent directory of run directories")
	f.summaryJSON = fs.String("summary-json", "", "also write summary.json to this file")
	f.out.register(fs)
	f.quiet = fs.Bool("quiet", false, "no live progress line")
	f.noMetrics = fs.Bool("no-metrics", false, "count requests only, without per-second metrics, run.db or dashboard: for measuring what they cost")
	f.segment = fs.String("segment", "", "run only a segment of the test, e.g. 0:1/2 (for distributed runs)")
	fs.Var(&f.envs, "e", "KEY=VALUE environment variable for {{ env.KEY }} templates (repeatable)")
	fs.Var(&f.tags, "tag", "label the run, e.g. commit=a1b2c3, kept in run.db, summary.json and its history (repeatable)")
	f.store = fs.String("store", "", "also record the run in a shared history store (postgres://…) as it ends")
	f.dist.register(fs)
}

// runDistributedCmd runs the test over agents: a URL's test is rendered
// for them, each agent checking the load against its own machine.
func runDistributedCmd(ctx context.Context, e *env, f *runFlags, target string, isURL bool, set map[string]bool, lookup func(string) (string, bool), rc app.RunConfig) int {
	if err := f.dist.check(*f.segment, *f.noMetrics); err != nil {
		return fail(e, err)
	}
	var source []byte
	if isURL {
		f.url.Machine = plan.Machine{} // each agent checks the load against its own machine
		var err error
		if source, err = f.url.TestFile(); err != nil {
			return fail(e, err)
		}
		target = ""
	} else if err := refuseShortcutsOverAgents(set); err != nil {
		return fail(e, err)
	} else if err := refuseURLFlags(set); err != nil {
		return fail(e, err)
	}
	rc, err := f.out.runConfig(rc)
	if err != nil {
		return fail(e, err)
	}
	e.watchStop()
	return runDistributed(ctx, e, &f.dist, target, source, lookup, rc)
}

// refuseURLFlags refuses URL mode's flags given with a test file, which sets these itself.
// stdinName names a test read from standard input in its errors.
const stdinName = "stdin"

// readStdin reads the test `run -` was given on standard input, at most
// plan.MaxFileSize of it.
func readStdin() ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(os.Stdin, plan.MaxFileSize+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading the test from standard input: %w", err)
	case len(b) > plan.MaxFileSize:
		return nil, usageErr("the test on standard input is larger than %d MiB", plan.MaxFileSize>>20)
	case len(b) == 0:
		return nil, usageErr("run -: standard input is empty; pipe a test into it (cat test.yaml | loadlens run -)")
	}
	return b, nil
}

// parseTarget parses the test file, or the test read from standard input
// (its relative paths are the working directory's).
func parseTarget(seg plan.Segment, target string, stdin []byte, lookup func(string) (string, bool), ov plan.LoadOverride) (*plan.Plan, error) {
	if stdin == nil {
		return checked(plan.ParseFileOverride(machineFor(seg), target, lookup, ov))
	}
	return checked(plan.ParseOverride(machineFor(seg), stdinName, stdin, lookup, ov))
}

// checked adds app.CheckTest's findings to a parse.
func checked(p *plan.Plan, err error) (*plan.Plan, error) {
	if err != nil {
		return nil, err
	}
	if err := app.CheckTest(p); err != nil {
		return nil, err
	}
	return p, nil
}

// loadOverride reads k6's -u/-d/-i given with a test file: they replace
// every scenario's load, as k6's shortcuts replace a script's options
// (docs/test-format.md, "Scenarios"). It clears them from set, so that
// refuseURLFlags refuses only URL mode's other flags.
func loadOverride(set map[string]bool, o *plan.URLOptions) (plan.LoadOverride, error) {
	var ov plan.LoadOverride
	if !set["vus"] && !set["duration"] && !set["iterations"] {
		return ov, nil
	}
	switch {
	case set["vus"] && o.VUs < 1:
		return ov, usageErr("--vus: must be at least 1 VU, got %d", o.VUs)
	case set["iterations"] && o.Iterations < 1:
		return ov, usageErr("--iterations: must be at least 1, got %d", o.Iterations)
	case set["duration"] && o.Duration <= 0:
		return ov, usageErr("--duration: must be above 0, got %s", o.Duration)
	case set["duration"] && o.Duration > plan.MaxRunLength:
		return ov, usageErr("--duration: at most %s, got %s", plan.MaxRunLength, o.Duration)
	case set["vus"] && !set["duration"] && !set["iterations"]:
		return ov, usageErr("--vus with a test file needs --duration or --iterations: VUs for a time, or iterations shared by them, as k6's shortcuts")
	}
	if set["vus"] {
		ov.VUs = o.VUs
	}
	if set["duration"] {
		ov.Duration = o.Duration
	}
	if set["iterations"] {
		ov.Iterations = o.Iterations
	}
	for _, f := range []string{"vus", "u", "duration", "d", "iterations", "i"} {
		delete(set, f)
	}
	return ov, nil
}

// aliasFlags marks k6's short flags (-u, -d, -i) as their long ones, so
// that every check of a flag sees either spelling.
func aliasFlags(set map[string]bool) {
	for short, long := range map[string]string{"u": "vus", "d": "duration", "i": "iterations"} {
		set[long] = set[long] || set[short]
	}
}

// iterationFlags checks --iterations against the flags it cannot go with,
// and drops the default --duration, which would otherwise bound it.
func iterationFlags(set map[string]bool, o *plan.URLOptions) error {
	if !set["iterations"] {
		return nil
	}
	switch {
	case o.Iterations < 1:
		return usageErr("--iterations: must be at least 1, got %d", o.Iterations)
	case set["rate"] || set["ramp"]:
		return usageErr("--iterations runs a fixed number of iterations with --vus VUs; it does not go with --rate or --ramp")
	}
	if !set["duration"] {
		o.Duration = 0 // the test file's default max_duration bounds them
	}
	return nil
}

func refuseURLFlags(set map[string]bool) error {
	for _, f := range urlOnlyFlags {
		if set[f] {
			return usageErr("--%s applies to URL mode; a test file sets this itself (see docs/test-format.md)", f)
		}
	}
	return nil
}

// urlLimits are the URL-mode flags whose zero value is meaningful, so
// they apply only when given.
type urlLimits struct {
	gracefulStop time.Duration
	arrivalSlack time.Duration
	maxRedirects int
	allowHosts   listFlag
}

func (l *urlLimits) register(fs *flag.FlagSet, o *plan.URLOptions) {
	// No flag default: unset, the plan picks 5s or the timeout if shorter, which the help says once.
	fs.DurationVar(&l.gracefulStop, "graceful-stop", 0, "URL mode: how long requests still running at the end may finish (default 5s, or the timeout if shorter)")
	fs.DurationVar(&l.arrivalSlack, "arrival-slack", plan.DefaultArrivalSlack, "URL mode, open model: arrivals due this close to one another start together (0s: each at its own time)")
	fs.IntVar(&l.maxRedirects, "max-redirects", plan.DefaultMaxRedirects, "URL mode: redirects one request follows (0: none)")
	fs.StringVar(&o.MaxBody, "max-body", "", "URL mode: body bytes kept for checks, e.g. 512KiB (default 1MiB)")
	fs.Var(&l.allowHosts, "allow-host", "URL mode: a host (or host:port) redirects may lead to besides the URL's (repeatable)")
}

// apply sets the options of the flags given on the command line.
func (l *urlLimits) apply(set map[string]bool, o *plan.URLOptions) {
	if set["graceful-stop"] {
		o.GracefulStop = &l.gracefulStop
	}
	if set["max-redirects"] {
		o.MaxRedirects = &l.maxRedirects
	}
	if set["arrival-slack"] {
		o.ArrivalSlack = &l.arrivalSlack
	}
	o.AllowHosts = l.allowHosts
}

// templatePart matches a {{ }} part of a template.
var templatePart = regexp.MustCompile(`\{\{.*?\}\}`)

// hasLiteralSpace reports whether a URL has a space outside its templates.
func hasLiteralSpace(u string) bool {
	return strings.Contains(templatePart.ReplaceAllString(u, ""), " ")
}

// classifyTarget tells a URL from a test file. A target with a scheme
// other than http(s), or neither a file nor a file name, is an error that
// says so rather than "cannot read the test file".
func classifyTarget(target string) (isURL bool, err error) {
	if i := strings.Index(target, "://"); i > 0 {
		scheme := strings.ToLower(target[:i])
		if scheme == "http" || scheme == "https" {
			return true, nil
		}
		return false, usageErr("%q is not a test file and not an http(s) URL: loadlens sends HTTP, so use http:// or https://", redactText(target))
	}
	if _, err := os.Stat(target); err == nil {
		return false, nil
	}
	switch strings.ToLower(filepath.Ext(target)) {
	case ".yaml", ".yml", ".json":
		return false, nil // a test file that is missing: reading it says so
	}
	hint := ""
	if !strings.ContainsAny(target, " \t") {
		hint = "; did you mean " + redactText("http://"+strings.TrimPrefix(target, "//")) + "?"
	}
	return false, usageErr("%q is not a test file and not an http(s) URL%s", redactText(target), hint)
}

// explicitZeros refuses --rate 0, --vus 0, --duration 0, --max-vus 0 and
// --timeout 0 given on the command line: each would otherwise quietly mean
// something else (the default, or no limit at all).
func explicitZeros(set map[string]bool, o *plan.URLOptions) error {
	var errs plan.Errors
	zero := func(flag, msg string) {
		errs = append(errs, &plan.Error{Field: "--" + flag, Msg: msg})
	}
	if set["rate"] && o.Rate == 0 {
		zero("rate", "must be above 0 iterations per second, got 0 (leave --rate out to run --vus)")
	}
	if set["vus"] && o.VUs == 0 {
		zero("vus", "must be at least 1 VU, got 0")
	}
	if set["duration"] && o.Duration == 0 {
		zero("duration", "must be above 0, got 0 (use 30s, 5m, ...)")
	}
	if set["max-vus"] && o.MaxVUs == 0 {
		zero("max-vus", "must be at least 1, got 0 (leave it out for the default)")
	}
	if set["timeout"] && o.Timeout == 0 {
		zero("timeout", "must be above 0, got 0 (leave it out for the default 60s)")
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// machineFor is this machine's figures, for the part seg of the test that
// this process runs.
func machineFor(seg plan.Segment) plan.Machine {
	m := readMachine()
	if !seg.IsWhole() {
		m.Share = float64(seg.End.Num)/float64(seg.End.Den) - float64(seg.Start.Num)/float64(seg.Start.Den)
	}
	return m
}

// testFileArg parses the arguments of a command that takes one test file
// (usage says so when they do not) and its -e flags, and loads the file;
// code is not ExitOK when that failed, the error already written.
func testFileArg(e *env, fs *flag.FlagSet, args []string, usage string) (p *plan.Plan, path string, code int) {
	var envs listFlag
	fs.Var(&envs, "e", "KEY=VALUE environment variable for {{ env.KEY }} templates (repeatable)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, "", app.ExitBadInput
	}
	if len(pos) != 1 {
		return nil, "", fail(e, usageErr("%s", usage))
	}
	if p, err = loadTestFile(pos[0], envs); err != nil {
		return nil, "", fail(e, err)
	}
	return p, pos[0], app.ExitOK
}

// loadTestFile parses a test file, with -e KEY=VALUE over the environment,
// checking its load against this machine.
func loadTestFile(path string, envs []string) (*plan.Plan, error) {
	lookup, err := envLookup(envs)
	if err != nil {
		return nil, err
	}
	return checked(plan.ParseFileFor(machineFor(plan.Segment{}), path, lookup))
}

// envLookup layers -e KEY=VALUE over the process environment.
func envLookup(pairs []string) (func(string) (string, bool), error) {
	over := map[string]string{}
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usageErr("-e wants KEY=VALUE, got text without \"=\" or with an empty KEY (not shown: it may be a secret)")
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
