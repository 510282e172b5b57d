// Package k6 imports the common subset of k6 scripts into a test: the load
// (options.vus/duration/iterations, stages, scenarios), thresholds, and the
// default (or a scenario's exec) function's http.get/post/... calls with
// their checks, sleeps and the values later requests take from earlier
// responses. Everything else is listed as not converted, with its line.
package k6

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/units"
)

// script is the state of one import.
type script struct {
	src      []byte
	t        *importer.Test
	http     string // the local name of k6/http's default import
	grpcMod  string // the local name of k6/net/grpc's default import
	wsMod    string // the local name of k6/ws's default import
	wsClass  string // the local name of k6/experimental/websockets' WebSocket
	redisMod string // the local name of k6/experimental/redis's default import
	// encodingMod and encodingFns are k6/encoding's default import's local
	// name and its functions imported by name (local name → function).
	encodingMod string
	encodingFns map[string]string
	// grpcNames maps a local name to what it imports of k6/net/grpc by name (Client, Stream)
	grpcNames map[string]string
	// metricClass maps a local name to the k6/metrics class it imports
	// (Counter, Rate, Trend, Gauge); metrics are those the script declares.
	metricClass map[string]string
	metrics     []*metricDecl
	k6          map[string]string // local name → k6 function (check, sleep, group)
	jslib       map[string]string // local name → jslib function (randomIntBetween, ...)
	globals     map[string]value
	funcs       map[string]*js.FuncDecl
	options     value
	def         *js.FuncDecl
	steps       int      // made in all: a function run by a thousand scenarios is converted a thousand times
	modules     []string // the modules imported, as "k6/net/grpc (line 2)", for a refusal
	base        string   // the origin made the base URL, trimmed from the steps' paths
	// setupData is what setup() returns, which default(data) reads; its
	// variables (setupVars) are the setup flow's extractions.
	setupData value
	setupVars map[string]bool
	noted     int // note's calls, a repeated note counted too: what a branch left out, whether said before or not
}

// maxSteps is the most steps an import makes: a test file holds about
// 5,000, and a short script can make millions (a function of 2,000
// requests that 1,000 scenarios run, 125 KB, took 1.2 GB).
const maxSteps = 10000

// room counts one more step, and reports whether the import may make it.
func (s *script) room() bool {
	s.steps++
	return s.steps <= maxSteps
}

// flow is a function being converted into steps.
type flow struct {
	s      *script
	steps  []importer.Step
	locals map[string]value
	vars   map[string]bool // variables set by extractions
	groups []span          // the group() calls' steps, in the order they close
	// sockets are the WebSockets (k6/experimental/websockets) the function
	// opens: their sessions run once its code has run, as k6's event loop does.
	sockets []*wsSession
	streams []*grpcStream // the gRPC streams it opens, made calls once its code has run
	ret     value         // what the function being inlined returned
	depth   int           // how many helper functions deep the conversion is
	setup   bool          // the flow is setup()'s: what it stores is there before any scenario runs
}

// groupName is a k6 group's label as a test's group name: "::" joins
// nested groups' names there, and a label made at run time is unknown.
func groupName(label string) string {
	if label = strings.ReplaceAll(label, "::", ":"); strings.TrimSpace(label) == "" {
		return "group"
	}
	return label
}

// Import converts the k6 script src, named name.
func Import(src []byte, name string) (*importer.Test, error) {
	ast, err := js.Parse(parse.NewInputBytes(src), js.Options{})
	var pe *parse.Error
	switch {
	case errors.As(err, &pe):
		// position, not the line: the file may be no script (a link to a secret), which an error must not echo
		return nil, fmt.Errorf("cannot parse the script as JavaScript: %s on line %d, column %d", clip(pe.Message), pe.Line, pe.Column)
	case err != nil:
		return nil, fmt.Errorf("cannot parse the script as JavaScript: %s", clip(err.Error()))
	}
	s := &script{src: src, t: &importer.Test{Source: "the k6 script " + name}, k6: map[string]string{},
		jslib: map[string]string{}, metricClass: map[string]string{}, grpcNames: map[string]string{}, encodingFns: map[string]string{}, globals: map[string]value{}, funcs: map[string]*js.FuncDecl{}}
	s.t.Name = strings.TrimSuffix(strings.TrimSuffix(name, ".js"), ".ts")
	for _, st := range ast.List {
		s.topLevel(st)
	}
	if s.http == "" && s.grpcMod == "" && len(s.grpcNames) == 0 && s.wsMod == "" && s.wsClass == "" {
		return nil, s.noHTTP()
	}
	s.hooks()
	scenarios := s.scenarios()
	if s.steps > maxSteps { // before nothingRuns: a flow cut at the bound may hold no request
		return nil, fmt.Errorf("the script's scenarios make more than %s steps; a test file holds about 5,000", units.Count(maxSteps))
	}
	if len(scenarios) == 0 {
		return nil, s.nothingRuns()
	}
	s.t.Scenarios = scenarios
	s.baseURL()
	s.declareMetrics()
	s.thresholds()
	s.otherOptions()
	s.t.Notes = append(s.t.Notes, "The load, thresholds and the requests (HTTP, gRPC, WebSocket) of each scenario's function, with their checks and sleeps, are converted.")
	s.checksNotes()
	return s.t, nil
}

// note records something not converted, once.
func (s *script) note(format string, args ...any) {
	s.noted++
	n := fmt.Sprintf(format, args...)
	if !slices.Contains(s.t.NotConverted, n) {
		s.t.NotConverted = append(s.t.NotConverted, n)
	}
}

// noHTTP says why a script without k6/http is refused, naming what it
// imports and what its default function does instead, with their lines.
func (s *script) noHTTP() error {
	if len(s.modules) == 0 {
		return fmt.Errorf("the script sends no HTTP request: it imports no module, k6/http included; %s; loadlens tests load over HTTP, gRPC (k6/net/grpc) and WebSocket (k6/ws)", s.doings())
	}
	return fmt.Errorf("the script sends no HTTP request: it does not import k6/http, only %s; %s; loadlens tests load over HTTP, gRPC (k6/net/grpc) and WebSocket (k6/ws)", strings.Join(s.modules, ", "), s.doings())
}

// userinfo matches a URL's user:password@, which a note must not show.
var userinfo = regexp.MustCompile(`(https?://)[^/@\s"'` + "`" + `]+@`)

// clip is a parser's message cut to maxClip runes, controls shown as '?':
// it may quote the token it stopped at, which is the file's text.
func clip(s string) string {
	var b strings.Builder
	for i, r := range []rune(s) {
		if i == maxClip {
			b.WriteString("…")
			break
		}
		if !unicode.IsPrint(r) {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maxClip bounds a parser's message: its prose and at most a short token.
const maxClip = 60

// snippet is a node's JavaScript, shortened, for notes.
func snippet(n interface{ String() string }) string {
	var b bytes.Buffer
	if jsn, ok := n.(interface {
		JS(io.Writer)
	}); ok {
		jsn.JS(&b)
	} else {
		b.WriteString(n.String())
	}
	s := userinfo.ReplaceAllString(strings.Join(strings.Fields(b.String()), " "), "$1")
	if len(s) > 70 {
		s = s[:67] + "..."
	}
	return s
}

// topLevel reads one statement of the module.
func (s *script) topLevel(st js.IStmt) {
	switch n := st.(type) {
	case *js.ImportStmt:
		s.importStmt(n)
	case *js.ExportStmt:
		switch d := n.Decl.(type) {
		case *js.FuncDecl:
			switch {
			case n.Default:
				s.def = d
			case d.Name != nil:
				s.funcs[string(d.Name.Data)] = d
			}
		case *js.VarDecl:
			for _, b := range d.List {
				if v, ok := b.Binding.(*js.Var); ok && string(v.Data) == "options" && b.Default != nil {
					s.options = s.eval(b.Default, nil)
				} else {
					s.declare(b, nil)
				}
			}
		case *js.ArrowFunc:
			if n.Default {
				s.def = &js.FuncDecl{Params: d.Params, Body: d.Body}
			}
		}
	case *js.VarDecl:
		for _, b := range n.List {
			s.declare(b, nil)
		}
	case *js.FuncDecl:
		if n.Name != nil {
			s.funcs[string(n.Name.Data)] = n
		}
	case *js.ExprStmt:
		if !s.initCall(n) {
			s.note("%s: top-level code: %s", s.at(snippet(st)), snippet(st))
		}
	default:
		s.note("%s: top-level code: %s", s.at(snippet(st)), snippet(st))
	}
}

// importStmt records what an import binds: k6/http, k6's functions, the
// protocols' modules, k6/metrics' classes, jslib's functions.
func (s *script) importStmt(n *js.ImportStmt) {
	mod := unquote(n.Module)
	s.modules = append(s.modules, fmt.Sprintf("%s (%s)", mod, s.at(string(n.Module))))
	switch {
	case mod == "k6/http":
		if n.Default != nil {
			s.http = string(n.Default)
		}
		for _, a := range n.List {
			if string(a.Name) == "*" || string(a.Name) == "default" {
				s.http = string(a.Binding)
			}
		}
	case mod == "k6/net/grpc" || mod == "k6/ws":
		s.moduleImport(mod, n)
	case mod == "k6/experimental/websockets" || mod == "k6/websockets":
		for _, a := range n.List {
			if importedName(a) == "WebSocket" {
				s.wsClass = string(a.Binding)
			}
		}
	case mod == "k6/experimental/redis" && n.Default != nil:
		s.redisMod = string(n.Default) // its commands are noted where they are called
	case mod == "k6/encoding": // its base64 of written text is computed; other calls are noted where made
		if n.Default != nil {
			s.encodingMod = string(n.Default)
		}
		for _, a := range n.List {
			s.encodingFns[string(a.Binding)] = importedName(a)
		}
	case mod == "k6/metrics":
		for _, a := range n.List {
			s.metricClass[string(a.Binding)] = importedName(a)
		}
	case mod == "k6":
		for _, a := range n.List {
			s.k6[string(a.Binding)] = importedName(a)
		}
	case strings.Contains(mod, "jslib.k6.io") || strings.HasPrefix(mod, "k6/"):
		for _, a := range n.List {
			s.jslib[string(a.Binding)] = importedName(a)
		}
		if !strings.Contains(mod, "k6-utils") && mod != "k6" {
			s.note("%s: import from %s (its functions are not run)", s.at(string(n.Module)), mod)
		}
	default:
		s.note("%s: import from %s", s.at(string(n.Module)), mod)
	}
}

// importedName is the exported name an import binds: {a} imports a, {a as b} too.
func importedName(a js.Alias) string {
	if len(a.Name) > 0 {
		return string(a.Name)
	}
	return string(a.Binding)
}

// declare records a constant the script declares.
func (s *script) declare(b js.BindingElement, f *flow) {
	v, ok := b.Binding.(*js.Var)
	if !ok || b.Default == nil {
		return
	}
	switch fn := b.Default.(type) {
	case *js.ArrowFunc: // const helper = () => {...}: called like a declared function
		s.funcs[string(v.Data)] = &js.FuncDecl{Params: fn.Params, Body: fn.Body}
		return
	case *js.FuncDecl:
		s.funcs[string(v.Data)] = fn
		return
	}
	val := s.eval(b.Default, f)
	if f != nil {
		f.locals[string(v.Data)] = val
		return
	}
	s.globals[string(v.Data)] = val
}

// scenarios converts the options' load into scenarios, each with its flow.
func (s *script) scenarios() []*importer.Scenario {
	o := s.options
	if sc, ok := o.get("scenarios"); ok && sc.kind == "obj" {
		var out []*importer.Scenario
		for _, p := range sc.obj {
			if x := s.scenario(p.key, p.val); x != nil {
				out = append(out, x)
			}
		}
		return out
	}
	if s.def == nil {
		return nil
	}
	load := s.shortcutLoad(o)
	flow := s.convert(s.def)
	if !hasRequest(flow) { // sleeps alone are no load
		return nil
	}
	return []*importer.Scenario{{Name: "default", Load: load, Flow: flow}}
}

// num returns a numeric option as written.
func num(o value, key string) (string, bool) {
	v, ok := o.get(key)
	if !ok || v.kind != "num" {
		return "", false
	}
	return v.text, true
}

// dur returns a duration option (k6 writes '30s', or a number of ms).
func dur(o value, key string) (string, bool) {
	v, ok := o.get(key)
	if !ok {
		return "", false
	}
	switch v.kind {
	case "str":
		return v.text, true
	case "num":
		return v.text + "ms", true
	}
	return "", false
}

// stages converts k6 stages.
func stages(o value) ([]importer.Stage, bool) {
	v, ok := o.get("stages")
	if !ok || v.kind != "arr" {
		return nil, false
	}
	var out []importer.Stage
	for _, st := range v.arr {
		d, ok1 := dur(st, "duration")
		t, ok2 := num(st, "target")
		if !ok1 || !ok2 {
			return nil, false
		}
		out = append(out, importer.Stage{Duration: d, Target: t})
	}
	return out, len(out) > 0
}

// shortcutLoad converts options.vus, duration, iterations and stages, as
// k6 turns them into one scenario.
func (s *script) shortcutLoad(o value) []importer.KV {
	vus, hasVUs := num(o, "vus")
	if st, ok := stages(o); ok {
		if !hasVUs {
			vus = "1" // k6 starts a stages ramp at options.vus, 1 by default
		}
		return []importer.KV{{Key: "model", Value: "vus"}, {Key: "start_vus", Value: importer.Raw(vus)}, {Key: "stages", Value: st}}
	}
	if !hasVUs {
		vus = "1"
	}
	if it, ok := num(o, "iterations"); ok {
		return []importer.KV{{Key: "model", Value: "iterations"}, {Key: "vus", Value: importer.Raw(vus)}, {Key: "iterations", Value: importer.Raw(it)}}
	}
	if d, ok := dur(o, "duration"); ok {
		return []importer.KV{{Key: "vus", Value: importer.Raw(vus)}, {Key: "duration", Value: d}}
	}
	// k6 without a duration runs one iteration of one VU.
	return []importer.KV{{Key: "model", Value: "iterations"}, {Key: "vus", Value: importer.Raw(vus)}, {Key: "iterations", Value: importer.Raw(vus)}}
}

// scenario converts one entry of options.scenarios.
func (s *script) scenario(name string, o value) *importer.Scenario {
	exec := s.def
	if e, ok := o.get("exec"); ok {
		fn, found := s.funcs[e.text]
		if !found {
			s.note("scenario %s: exec %q is not a function of the script", name, e.text)
			return nil
		}
		exec = fn
	}
	if exec == nil {
		s.note("scenario %s: no function to run", name)
		return nil
	}
	load, ok := s.executorLoad(name, o)
	if !ok {
		return nil
	}
	for _, k := range []string{"env", "tags", "options"} {
		if _, ok := o.get(k); ok {
			s.note("scenario %s: %s", name, k)
		}
	}
	flow := s.convert(exec)
	if !hasRequest(flow) {
		s.note("scenario %s: no request the import understood", name)
		return nil
	}
	return &importer.Scenario{Name: importer.NameChars(name), Load: load, Flow: flow}
}

// executorLoad converts a scenario's executor and its options to
// loadlens's load keys; false for an executor loadlens has no model of.
func (s *script) executorLoad(name string, o value) ([]importer.KV, bool) {
	executor, _ := o.get("executor")
	var load []importer.KV
	add := func(k string, v any) { load = append(load, importer.KV{Key: k, Value: v}) }
	addNum := func(k6key, key string) {
		if v, ok := num(o, k6key); ok {
			add(key, importer.Raw(v))
		}
	}
	addDur := func(k6key, key string) {
		if v, ok := dur(o, k6key); ok {
			add(key, v)
		}
	}
	switch executor.text {
	case "constant-vus":
		add("model", "vus")
		addNum("vus", "vus")
		addDur("duration", "duration")
	case "ramping-vus":
		add("model", "vus")
		if v, ok := num(o, "startVUs"); ok {
			add("start_vus", importer.Raw(v))
		} else {
			add("start_vus", importer.Raw("1"))
		}
		if st, ok := stages(o); ok {
			add("stages", st)
		}
		addDur("gracefulRampDown", "graceful_ramp_down")
	case "constant-arrival-rate":
		add("model", "arrival-rate")
		addNum("rate", "rate")
		addDur("duration", "duration")
		addDur("timeUnit", "time_unit")
		load = append(load, arrivalVUs(o)...)
	case "ramping-arrival-rate":
		add("model", "arrival-rate")
		addNum("startRate", "start_rate")
		if st, ok := stages(o); ok {
			add("stages", st)
		}
		addDur("timeUnit", "time_unit")
		load = append(load, arrivalVUs(o)...)
	case "shared-iterations":
		add("model", "iterations")
		addNum("vus", "vus")
		addNum("iterations", "iterations")
		addDur("maxDuration", "max_duration")
	case "per-vu-iterations":
		vus, _ := num(o, "vus")
		it, _ := num(o, "iterations")
		if vus == "" {
			vus = "1"
		}
		if it == "" {
			it = "1"
		}
		add("model", "iterations")
		add("vus", importer.Raw(vus))
		add("iterations", importer.Raw(fmt.Sprintf("%d", atoi(vus)*atoi(it))))
		addDur("maxDuration", "max_duration")
		s.note("scenario %s: per-vu-iterations became %s shared iterations (VUs share them in loadlens)", name, fmt.Sprintf("%d", atoi(vus)*atoi(it)))
	default:
		s.note("scenario %s: executor %q (loadlens has vus, arrival-rate and iterations)", name, executor.text)
		return nil, false
	}
	addDur("startTime", "start_time")
	addDur("gracefulStop", "graceful_stop")
	return load, true
}

// arrivalVUs converts an arrival-rate scenario's VUs. k6's maxVUs defaults
// to preAllocatedVUs: without max_vus loadlens would start VUs up to its own cap.
func arrivalVUs(o value) []importer.KV {
	var kv []importer.KV
	pre, ok := num(o, "preAllocatedVUs")
	if ok {
		kv = append(kv, importer.KV{Key: "pre_allocated_vus", Value: importer.Raw(pre)})
	}
	if v, found := num(o, "maxVUs"); found {
		kv = append(kv, importer.KV{Key: "max_vus", Value: importer.Raw(v)})
	} else if ok {
		kv = append(kv, importer.KV{Key: "max_vus", Value: importer.Raw(pre)})
	}
	return kv
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// declared reports whether the test declares the custom metric name.
func (s *script) declared(name string) bool {
	return slices.ContainsFunc(s.t.Metrics, func(kv importer.KV) bool { return kv.Key == name })
}

// protocolMetric reports whether name is a k6 gRPC or WebSocket metric
// loadlens has under the same name.
func protocolMetric(name string) bool {
	return slices.Contains([]string{"grpc_req_duration", "ws_sessions", "ws_msgs_sent", "ws_msgs_received", "ws_session_duration"}, name)
}

// thresholdMetrics are the k6 metrics loadlens has under the same name.
var thresholdMetrics = map[string]bool{
	"http_req_duration": true, "http_req_waiting": true, "http_req_connecting": true, "http_req_tls_handshaking": true,
	"http_req_failed": true, "http_reqs": true, "checks": true, "iterations": true, "iteration_duration": true,
	"dropped_iterations": true, "data_sent": true, "data_received": true, "vus": true, "vus_max": true, "group_duration": true,
}

// thresholds converts options.thresholds on metrics loadlens has, without
// filters or filtered by scenario or method.
func (s *script) thresholds() {
	th, ok := s.options.get("thresholds")
	if !ok || th.kind != "obj" {
		return
	}
	scenarioNames := map[string]bool{}
	for _, sc := range s.t.Scenarios {
		scenarioNames[sc.Name] = true
	}
	for _, p := range th.obj {
		metric, filter, _ := strings.Cut(p.key, "{")
		filter = strings.TrimSuffix(filter, "}")
		if m, custom := s.customMetric(metric); custom && !m.added {
			s.note("%s: threshold on %s (the test adds no value to %s: %s)", s.keyAt(p.key), p.key, metric, "its add() calls are not converted")
			continue
		}
		if !thresholdMetrics[metric] && !s.declared(metric) && !protocolMetric(metric) {
			s.note("%s: threshold on %s (a metric loadlens does not have)", s.keyAt(p.key), p.key)
			continue
		}
		kept, why := s.keptFilter(metric, filter, scenarioNames)
		if why != "" {
			s.note("%s: threshold on %s (filter %s: %s)", s.keyAt(p.key), p.key, filter, why)
			continue
		}
		t := importer.Threshold{Metric: p.key}
		if kept != filter {
			t.Metric = metric + "{" + kept + "}"
		}
		items := []value{p.val}
		if p.val.kind == "arr" {
			items = p.val.arr
		}
		for _, it := range items {
			switch it.kind {
			case "str":
				t.Exprs = append(t.Exprs, it.text)
			case "obj":
				e, _ := it.get("threshold")
				if e.kind == "str" {
					t.Exprs = append(t.Exprs, e.text)
				}
				if a, ok := it.get("abortOnFail"); ok && a.b {
					t.Abort = true
				}
				if d, ok := dur(it, "delayAbortEval"); ok {
					t.DelayAbort = d
				}
			}
		}
		if len(t.Exprs) > 0 {
			s.t.Thresholds = append(s.t.Thresholds, t)
		}
	}
}

// keptFilter returns a threshold's tag filter as the test writes it, or
// says why it cannot be kept: a scenario the test has, a method, a status
// (on http_req_duration and http_reqs), k6's name tag naming a request
// (its URL, the default name, becomes the test's name for it), and
// expected_response:true on http_req_duration (k6's commonest gate,
// which a test that dropped it would pass where k6 fails).
func (s *script) keptFilter(metric, filter string, scenarios map[string]bool) (string, string) {
	if filter == "" {
		return "", ""
	}
	var kept []string
	for _, tag := range strings.Split(filter, ",") {
		k, v, _ := strings.Cut(tag, ":")
		k, v = strings.TrimSpace(k), strings.Trim(v, `"' `)
		if s.declared(metric) && k != "scenario" {
			return "", "a test's own metric is filtered by scenario only"
		}
		switch {
		case k == "scenario" && scenarios[v], k == "method":
		case k == "status" && (metric == "http_req_duration" || metric == "http_reqs"):
		case k == "name":
			name, ok := s.stepName(v)
			if !ok {
				return "", "no request of the test is named " + strconv.Quote(v)
			}
			v = strconv.Quote(name)
		case k == "group":
			if !s.hasGroup(v) {
				return "", "no group of the test is named " + strconv.Quote(v) + " (k6 writes a group's name as ::name, ::outer::inner)"
			}
		case k == "expected_response" && v == "true" && metric == "http_req_duration":
		case k == "expected_response":
			return "", "loadlens keeps expected_response:true on http_req_duration only"
		default:
			return "", "loadlens filters by scenario, endpoint, name, method, group, status, check and expected_response:true"
		}
		kept = append(kept, k+":"+v)
	}
	return strings.Join(kept, ","), ""
}

// hasGroup reports whether the test has the group k6 names v: "::name",
// or "::outer::inner" for a group inside another.
func (s *script) hasGroup(v string) bool {
	for _, flow := range s.flows() {
		if groupNamed(flow, "", v) {
			return true
		}
	}
	return false
}

// groupNamed looks for the group k6 names want in flow, whose groups are
// inside the group k6 names prefix ("" at the top).
func groupNamed(flow []importer.Step, prefix, want string) bool {
	for i := range flow {
		st := &flow[i]
		inner := prefix
		if st.Group != "" {
			inner = prefix + "::" + st.Group
			if inner == want {
				return true
			}
		}
		if groupNamed(st.Steps, inner, want) || groupNamed(st.Then, inner, want) || groupNamed(st.Else, inner, want) {
			return true
		}
	}
	return false
}

// stepName returns the name the test gives the request k6's name tag v
// names: its tags.name, or its URL (k6's default name).
func (s *script) stepName(v string) (string, bool) {
	found := ""
	for _, flow := range s.flows() {
		importer.EachStep(flow, func(st *importer.Step) {
			name := st.Name
			if name == "" {
				name = st.Path
			}
			if found == "" && st.Method != "" && (v == name || v == withoutUserinfo(s.base)+name) {
				found = name
			}
		})
	}
	return found, found != ""
}

// baseURL makes the most common origin of the steps the test's base URL.
func (s *script) baseURL() {
	counts := map[string]int{}
	for _, flow := range s.flows() {
		importer.EachStep(flow, func(st *importer.Step) {
			basicFromUserinfo(st)
			if o := originOf(st.Path); o != "" {
				counts[o]++
			}
		})
	}
	if len(counts) == 0 {
		return
	}
	origins := make([]string, 0, len(counts))
	for o := range counts {
		origins = append(origins, o)
	}
	sort.Slice(origins, func(i, j int) bool {
		return counts[origins[i]] > counts[origins[j]] || (counts[origins[i]] == counts[origins[j]] && origins[i] < origins[j])
	})
	base := origins[0]
	s.base = base
	if strings.HasPrefix(base, "{{") {
		s.t.BaseURL = base
	} else {
		s.t.BaseURL = `{{ env("BASE_URL", "` + base + `") }}`
	}
	for _, flow := range s.flows() {
		importer.EachStep(flow, func(st *importer.Step) {
			if originOf(st.Path) == base {
				st.Path = strings.TrimPrefix(st.Path, base)
				if st.Path == "" || st.Path[0] != '/' {
					st.Path = "/" + st.Path
				}
				if shown := withoutUserinfo(base); st.Name != "" && strings.HasPrefix(st.Name, shown) {
					st.Name = strings.TrimPrefix(st.Name, shown)
				}
			}
		})
	}
}

// originOf returns the scheme and host a step's URL starts with, or a
// leading {{ env(...) }} template that stands for them.
func originOf(path string) string {
	if strings.HasPrefix(path, "{{") {
		if i := strings.Index(path, "}}"); i > 0 {
			return path[:i+2]
		}
	}
	for _, scheme := range []string{"http://", "https://"} {
		if strings.HasPrefix(path, scheme) {
			rest := path[len(scheme):]
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				rest = rest[:i]
			}
			return scheme + rest
		}
	}
	return ""
}

// flows returns every flow of the test: the setup, each scenario's, the teardown.
func (s *script) flows() [][]importer.Step {
	out := [][]importer.Step{s.t.Setup}
	for _, sc := range s.t.Scenarios {
		out = append(out, sc.Flow)
	}
	return append(out, s.t.Teardown)
}
