package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Defaults of the top-level keys.
const (
	DefaultTimeout      = 60 * time.Second // request timeout when the test sets none
	DefaultHookTimeout  = 60 * time.Second // how long a setup or teardown may take when the test says not (k6's default)
	DefaultMaxRedirects = 10               // redirects followed inside one sample, as in k6
	DefaultMaxBody      = 1 << 20          // bytes of a body kept for checks and extractions
)

// topKeys are the keys a test file may have at the top level, besides the
// x- extension keys that are ignored so they can hold YAML anchors.
// kubernetes is read by `loadlens k8s` (internal/k8s), not by the plan.
var topKeys = []string{"name", "base_url", "headers", "timeout", "expect_status", "redirects", "max_body", "allow_hosts", "insecure_skip_tls_verify", "http2", "thresholds", "scenarios", "observe", "outputs", "tracing", "kubernetes", "setup", "setup_timeout", "teardown", "teardown_timeout", "metrics"}

// namePattern is what run and scenario names may contain: they name
// directories and appear in threshold filters.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// parser holds the state of one Parse call.
type parser struct {
	file string
	dir  string // where relative CSV paths are resolved
	*yamldoc.Doc
	layout     layoutBuilder
	hosts      []string // hosts of the URLs the test names, for Plan.AllowHosts
	origins    []string // scheme://host[:port] of the URLs the test names, for Plan.Origins
	machine    Machine  // what the machine holds; loads beyond it are errors
	needs      map[*Scenario]vuNeed
	secrets    []span             // literal credentials in header values, kept out of Plan.Source
	secretLost bool               // a credential's place in the text was not found: Plan.Source is withheld
	verifying  bool               // parsing a redacted source to check it: no redaction of its own
	badBase    bool               // base_url was given and reported bad: relative paths need not say it is missing
	length     lengthSum          // the durations of the scenario being parsed, against MaxRunLength
	setupVars  []string           // the variables setup: sets, which every scenario and teardown: read
	customs    []threshold.Custom // the metrics the test declares (metrics:), which add: steps and thresholds name
	override   LoadOverride       // -u/-d/-i given with the file: every scenario's load
	replies    []string           // the protocols of the steps with until:, which measure <protocol>_reply_time
	// unplaced: the .proto files and protosets the test names need not be
	// there yet (an import's output, written before the user copies them)
	unplaced bool
}

// ParseFile reads the test file at path and parses it; see Parse.
func ParseFile(path string, env func(string) (string, bool)) (*Plan, error) {
	return ParseFileFor(Machine{}, path, env)
}

// ParseFileFor is ParseFile that also checks the load against machine m.
func ParseFileFor(m Machine, path string, env func(string) (string, bool)) (*Plan, error) {
	src, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	return ParseFor(m, path, src, env)
}

// readLimited reads the file at path, refusing one larger than MaxFileSize
// before reading it.
func readLimited(path string) ([]byte, error) {
	src, err := boundedfile.Read(path, yamldoc.MaxFileSize, false)
	var big *boundedfile.TooLargeError
	switch {
	case errors.As(err, &big) && big.AtLeast: // a file that grew, or a pipe
		return nil, &yamldoc.Error{File: path, Msg: fmt.Sprintf("the test file is more than %d MiB; a test file may be at most %d MiB (put large data in a CSV file, under data:)", yamldoc.MaxFileSize>>20, yamldoc.MaxFileSize>>20)}
	case errors.As(err, &big):
		return nil, &yamldoc.Error{File: path, Msg: yamldoc.SizeMessage(big.Size)}
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &yamldoc.Error{File: path, Msg: fmt.Sprintf("cannot read the test file: %v", err)}
	}
	return src, nil
}

// Parse parses the text src of a test file into a validated Plan. file names
// the file in errors and is where CSV paths are resolved from; env looks up
// environment variables for templates (nil means the process environment).
// Every error found is returned, as Errors sorted by position.
func Parse(file string, src []byte, env func(string) (string, bool)) (*Plan, error) {
	return ParseFor(Machine{}, file, src, env)
}

// ParseFor is Parse that also checks the load against machine m: VUs
// beyond its memory or open files, and rates beyond its cores, are errors
// at the value that asks for them, and a default max_vus stays within it.
func ParseFor(m Machine, file string, src []byte, env func(string) (string, bool)) (*Plan, error) {
	p := &parser{file: file, dir: filepath.Dir(file), Doc: yamldoc.New(file, env), machine: m}
	return p.parse(src)
}

// ParseImported is Parse for a test an import wrote: the .proto files
// and protosets it names are not looked for, as the user places them
// beside the test once it is written (validate and run then do).
func ParseImported(file string, src []byte, env func(string) (string, bool)) (*Plan, error) {
	p := &parser{file: file, dir: filepath.Dir(file), Doc: yamldoc.New(file, env), unplaced: true}
	return p.parse(src)
}

// parse parses src with p's settings.
func (p *parser) parse(src []byte) (*Plan, error) {
	file := p.file
	text, root, ok := p.Read(src)
	if !ok {
		return nil, p.Errs.Result()
	}
	plan := p.plan(root)
	if err := p.Errs.Result(); err != nil {
		return nil, err
	}
	plan.File = file
	plan.Source = src
	if (len(p.secrets) > 0 || p.secretLost) && !p.verifying {
		// The source is stored with the run (run.db, report.html), so a
		// literal credential in a header is replaced there, as the command
		// line's are; {{ env.X }} templates stay as written.
		plan.Source = p.storedSource(src, len(src)-len(text))
	}
	return plan, nil
}

// defaults are the top-level settings every request inherits.
type defaults struct {
	baseURL   string
	baseAuth  string          // the Authorization value base_url's credentials stand for; "" for none
	headers   []yamldoc.Field // canonical names, values compiled per scenario
	timeout   time.Duration
	expect    []int // statuses that are not failures; nil: below 400
	redirects int   // redirects followed inside one sample
	maxBody   int64 // bytes of a body kept for checks and extractions
	http2     bool  // https requests may use HTTP/2
}

// plan parses the top-level mapping.
func (p *parser) plan(root yamldoc.Node) *Plan {
	o, ok := p.topLevel(root)
	if !ok {
		return nil
	}
	plan := &Plan{Name: defaultName(p.file), Timeout: DefaultTimeout}
	if n, ok := o.Get("name"); ok {
		if s, ok := p.NonEmpty(n, "a name"); ok {
			if namePattern.MatchString(s) && s != "." && s != ".." {
				plan.Name = s
			} else {
				p.Errs.Add(n.Pos, n.Path, "name %q may only use letters, digits, '.', '_' and '-' (it names the run's directory)", s)
			}
		}
	}
	def := p.planDefaults(o, plan)
	if n, ok := o.Get("metrics"); ok {
		p.customs = p.customMetrics(n)
	}
	if n, ok := o.Get("setup"); ok {
		plan.Setup = p.hook(n, def, nil)
		plan.Setup.Timeout = p.hookTimeout(o, "setup_timeout")
		p.setupVars = plan.Setup.Vars
	}
	if n, ok := o.Get("scenarios"); ok {
		plan.Scenarios = p.scenarios(n, def)
	} else {
		p.Errs.Missing(yamldoc.Pos{Line: 1, Col: 1}, "", "", "missing key \"scenarios\": a test needs at least one scenario")
	}
	if n, ok := o.Get("teardown"); ok {
		plan.Teardown = p.hook(n, def, p.setupVars)
		plan.Teardown.Timeout = p.hookTimeout(o, "teardown_timeout")
	}
	if len(plan.Scenarios) > 0 {
		plan.Headers = p.headers(def.headers, nil, scenarioScope(plan.Scenarios[0], p.Env))
	}
	p.planObservation(o, plan)
	plan.AllowHosts = slices.Clone(p.hosts) // allow_hosts is appended: p.hosts's array is not shared
	plan.Origins = p.origins
	if n, ok := o.Get("allow_hosts"); ok {
		for _, h := range p.allowHosts(n) {
			if !slices.Contains(plan.AllowHosts, h) {
				plan.AllowHosts = append(plan.AllowHosts, h)
			}
		}
	}
	plan.Layout = p.layout.layout
	return plan
}

// topLevel checks the top-level keys, leaving out the x- extension keys.
func (p *parser) topLevel(root yamldoc.Node) (*yamldoc.Object, bool) {
	top, ok := p.Fields(root, "a mapping of test settings (name, base_url, scenarios, ...)", 0)
	if !ok {
		return nil, false
	}
	o := &yamldoc.Object{Node: root}
	for _, f := range top {
		switch {
		case strings.HasPrefix(f.Name, "x-"): // extension keys hold anchors for reuse
		case !slices.Contains(topKeys, f.Name):
			p.UnknownKey(f, "", topKeys)
		default:
			o.Fields = append(o.Fields, f)
		}
	}
	return o, true
}

// planDefaults reads the test-wide settings every scenario's requests
// start from: the base URL, timeout, TLS, expected statuses, redirects,
// body cap, HTTP/2 and headers.
func (p *parser) planDefaults(o *yamldoc.Object, plan *Plan) *defaults {
	var baseAuth string
	if n, ok := o.Get("base_url"); ok {
		plan.BaseURL, baseAuth = p.baseURL(n)
		p.badBase = plan.BaseURL == ""
	}
	if n, ok := o.Get("timeout"); ok {
		if d, ok := p.PositiveDuration(n); ok {
			plan.Timeout = d
		}
	}
	if n, ok := o.Get("insecure_skip_tls_verify"); ok {
		plan.Insecure, _ = p.Bool(n)
	}
	def := &defaults{baseURL: plan.BaseURL, baseAuth: baseAuth, timeout: plan.Timeout, redirects: DefaultMaxRedirects, maxBody: DefaultMaxBody}
	if n, ok := o.Get("expect_status"); ok {
		def.expect, _, _ = p.StatusCodes(n)
	}
	if n, ok := o.Get("redirects"); ok {
		if r, ok := p.redirects(n); ok {
			def.redirects = r
		}
	}
	if n, ok := o.Get("max_body"); ok {
		if b, ok := p.size(n); ok {
			def.maxBody = b
		}
	}
	if n, ok := o.Get("http2"); ok {
		def.http2, _ = p.Bool(n)
	}
	if n, ok := o.Get("headers"); ok {
		def.headers = p.headerFields(n)
	}
	return def
}

// planObservation reads what the run judges and watches beside the load:
// thresholds, observed sources, outputs and tracing.
func (p *parser) planObservation(o *yamldoc.Object, plan *Plan) {
	if n, ok := o.Get("thresholds"); ok {
		plan.Thresholds = p.thresholds(n)
		plan.thresholdsAt = o.KeyPos("thresholds")
	}
	if n, ok := o.Get("observe"); ok {
		plan.Observe = p.observe(n)
	}
	if n, ok := o.Get("outputs"); ok {
		plan.Outputs = p.outputs(n)
	}
	if n, ok := o.Get("tracing"); ok {
		plan.Tracing = p.tracing(n)
	} else if plan.Observe.Traces != nil {
		plan.Tracing = Tracing{Sample: 1, Keep: DefaultTraceKeep} // spans to join need sampled requests
	} else {
		plan.Tracing = Tracing{Keep: DefaultTraceKeep}
	}
}

// baseURL returns the constant base URL (only env lookups may be
// templated) without its credentials, and the Authorization value they
// stand for ("" for none).
func (p *parser) baseURL(n yamldoc.Node) (string, string) {
	s, ok := p.NonEmpty(n, "a URL like http://127.0.0.1:8080")
	if !ok {
		return "", ""
	}
	p.noteURLSecret(n)
	t, ok := p.Compile(n, s, &tmpl.Scope{Env: p.Env})
	if !ok {
		return "", ""
	}
	c, isConst := t.Const()
	if !isConst {
		p.Errs.Add(n.Pos, n.Path, "base_url must be the same for every request: only env lookups may be templated")
		return "", ""
	}
	u, err := url.Parse(c)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Errs.Add(n.Pos, n.Path, "bad base URL %q: expected http:// or https:// and a host, like http://127.0.0.1:8080", Redact(c))
		return "", ""
	}
	if u.RawQuery != "" || u.Fragment != "" {
		p.Errs.Add(n.Pos, n.Path, "base URL %q must not have a query or fragment; put them in the steps", Redact(c))
		return "", ""
	}
	if !p.checkPort(n, s, u) {
		return "", ""
	}
	c, auth, _ := cutUserinfo(c)
	p.nameHost(c)
	return c, auth
}

// defaultName derives a run name from the file name (NameFor), "test"
// when the file name has none.
func defaultName(file string) string { return NameFor(file, "test") }

// NameFor derives a test's name from its file's name: the base without the
// extension, with characters outside [A-Za-z0-9._-] replaced by '-'; or
// fallback when nothing of it may name a run's directory.
func NameFor(file, fallback string) string {
	base := filepath.Base(file)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	name := sanitizeName(base)
	if name == "" || name == "." || name == ".." {
		return fallback
	}
	return name
}

// sanitizeName replaces runs of characters outside [A-Za-z0-9._-] with '-'
// and trims dashes at the ends.
func sanitizeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < 128 && (r == '.' || r == '_' || r == '-' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z'))
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}
