package plan

import (
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Scenario defaults.
const (
	DefaultGracefulStop     = 30 * time.Second // in-flight iterations may finish this long after a scenario's end
	DefaultGracefulRampDown = 30 * time.Second // a VU removed by a ramp-down may finish its iteration this long
)

// commonScenarioKeys are the keys of every scenario, whatever its model.
var commonScenarioKeys = []string{"model", "start_time", "graceful_stop", "http2", "data", "vu_vars", "flow"}

// modelKeys are the keys each load model adds.
var modelKeys = map[Model][]string{
	ArrivalRate: {"rate", "duration", "start_rate", "stages", "time_unit", "pre_allocated_vus", "max_vus", "arrival_slack"},
	VUs:         {"vus", "duration", "start_vus", "stages", "graceful_ramp_down"},
	Iterations:  {"vus", "iterations", "max_duration"},
}

// allScenarioKeys is every key some scenario may have.
var allScenarioKeys = func() []string {
	keys := slices.Clone(commonScenarioKeys)
	for _, m := range []Model{ArrivalRate, VUs, Iterations} {
		for _, k := range modelKeys[m] {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}()

// reservedVars are names templates resolve to built-ins, so no CSV column or
// extraction may use them.
var reservedVars = []string{"vu", "iteration", "scenario", "env"}

// scenarioCtx is what parsing a scenario's flow needs.
type scenarioCtx struct {
	s     *Scenario
	scope *tmpl.Scope
	def   *defaults
	depth int    // how deeply the step being parsed is nested in control-flow steps
	group string // the enclosing group's name ("" at the top), as k6 tags it
}

// scenarios parses the scenarios mapping, keeping its order.
func (p *parser) scenarios(n yamldoc.Node, def *defaults) []*Scenario {
	o, ok := p.Object(n, "a mapping of scenario names to scenarios", nil)
	if !ok {
		return nil
	}
	if len(o.Fields) == 0 {
		p.Errs.Add(n.Pos, n.Path, "needs at least one scenario")
		return nil
	}
	var out []*Scenario
	p.needs = map[*Scenario]vuNeed{}
	for _, f := range o.Fields {
		if !namePattern.MatchString(f.Name) {
			p.Errs.Add(f.Value.Key, f.Value.Path, "scenario name %q may only use letters, digits, '.', '_' and '-'", f.Name)
			continue
		}
		if s := p.scenario(f.Name, f.Value, def); s != nil {
			out = append(out, s)
		}
	}
	if !p.Errs.Failed() {
		p.checkTotalVUs(out, p.needs, n)
	}
	return out
}

// scenario parses one scenario.
func (p *parser) scenario(name string, n yamldoc.Node, def *defaults) *Scenario {
	o, ok := p.Object(n, "a scenario (a mapping with model, flow, ...)", nil)
	if !ok {
		return nil
	}
	model, modelOK := p.model(o)
	p.scenarioKeys(o, model, modelOK)
	s := &Scenario{ID: p.layout.scenario(name, model), Name: name, GracefulStop: DefaultGracefulStop, HTTP2: def.http2}
	if d, ok := o.Get("data"); ok {
		s.Data = p.data(d)
		p.MissingVars = s.Data == nil
		defer func() { p.MissingVars = false }()
	}
	flowNode, hasFlow := o.Get("flow")
	if s.Data != nil {
		s.Vars = slices.Clone(s.Data.Columns)
	}
	vuVars, hasVUVars := o.Get("vu_vars")
	if hasVUVars {
		s.VUVars = len(p.vuVarNames(vuVars, s))
	}
	s.SetupAt = len(s.Vars)
	for _, v := range p.setupVars {
		if slices.Contains(s.Vars, v) {
			p.Errs.Add(n.Key, n.Path, "variable %q is set by setup:, which every scenario reads; rename the data column or vu_var", v)
		}
		s.Vars = append(s.Vars, v)
	}
	s.VUVars += len(p.setupVars)
	if hasFlow {
		for _, v := range p.extractNames(flowNode) {
			if !slices.Contains(s.Vars, v) {
				s.Vars = append(s.Vars, v)
			}
		}
	}
	sc := &scenarioCtx{s: s, scope: scenarioScope(s, p.Env), def: def}
	if hasVUVars {
		var columns []string
		if s.Data != nil {
			columns = s.Data.Columns
		}
		s.VUSets = p.sets(vuVars, sc, columns)
	}
	if hasFlow {
		s.Flow = p.flow(flowNode, sc)
		if d, _ := o.Get("data"); s.Data != nil && s.Data.Rows != nil {
			p.checkDataValues(d, s)
		}
	} else {
		p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"flow\": the list of steps each iteration runs")
	}
	p.length = lengthSum{}
	if modelOK {
		var need vuNeed
		s.Load, need = p.load(o, model, s.Flow)
		if need.vus > 0 || need.defaults {
			p.needs[s] = need
		}
	}
	if v, ok := o.Get("start_time"); ok {
		s.StartTime, _ = p.Duration(v)
	}
	if !p.override.IsZero() {
		p.applyOverride(s)
	}
	if v, ok := o.Get("graceful_stop"); ok {
		s.GracefulStop, _ = p.Duration(v)
	}
	p.checkLength(o, s)
	if v, ok := o.Get("http2"); ok {
		s.HTTP2, _ = p.Bool(v)
	}
	return s
}

// scenarioScope returns the template scope of a scenario's variables.
func scenarioScope(s *Scenario, env func(string) (string, bool)) *tmpl.Scope {
	vars := make(map[string]int, len(s.Vars))
	for i, v := range s.Vars {
		vars[v] = i
	}
	return &tmpl.Scope{Vars: vars, Env: env}
}

// model returns the scenario's model: as written, or inferred from the keys
// only one model uses.
func (p *parser) model(o *yamldoc.Object) (Model, bool) {
	if n, ok := o.Get("model"); ok {
		s, ok := p.OneOf(n, "arrival-rate", "vus", "iterations")
		switch s {
		case "vus":
			return VUs, ok
		case "iterations":
			return Iterations, ok
		}
		return ArrivalRate, ok
	}
	type hint struct {
		key   string
		model Model
	}
	var hints []hint
	iterationKeys := o.Has("iterations") || o.Has("max_duration")
	for _, f := range o.Fields {
		switch f.Name {
		case "iterations", "max_duration":
			hints = append(hints, hint{f.Name, Iterations})
		case "rate", "start_rate", "time_unit", "pre_allocated_vus", "max_vus", "arrival_slack":
			hints = append(hints, hint{f.Name, ArrivalRate})
		case "start_vus", "graceful_ramp_down":
			hints = append(hints, hint{f.Name, VUs})
		case "vus":
			if !iterationKeys {
				hints = append(hints, hint{f.Name, VUs})
			}
		}
	}
	if len(hints) == 0 {
		p.Errs.Missing(o.Key, o.Path, o.Path, "missing key \"model\" (arrival-rate, vus or iterations): it cannot be inferred without rate, vus or iterations")
		return ArrivalRate, false
	}
	for _, h := range hints[1:] {
		if h.model != hints[0].model {
			p.Errs.Add(o.KeyPos(h.key), o.Path, "cannot infer the model: %q means %s but %q means %s; set model:",
				hints[0].key, hints[0].model, h.key, h.model)
			return ArrivalRate, false
		}
	}
	return hints[0].model, true
}

// scenarioKeys reports unknown keys, listing the keys of the scenario's
// model when it is known, and keys that belong to another model.
func (p *parser) scenarioKeys(o *yamldoc.Object, m Model, known bool) {
	allowed := allScenarioKeys
	if known {
		allowed = append(slices.Clone(commonScenarioKeys), modelKeys[m]...)
	}
	for _, f := range o.Fields {
		switch {
		case !slices.Contains(allScenarioKeys, f.Name):
			p.UnknownKey(f, o.Path, allowed)
		case !slices.Contains(allowed, f.Name):
			p.Errs.Add(f.Value.Key, f.Value.Path, "%q does not apply to a %s scenario (allowed: %s)", f.Name, m, strings.Join(allowed, ", "))
		}
	}
}

// extractNames pre-scans a flow for the names of the variables its steps
// set (extract:, set:, for_each's as:), nested steps included, so that
// templates anywhere in the flow can use them. The real pass reports any
// error, so this one is quiet.
func (p *parser) extractNames(flow yamldoc.Node) []string {
	defer p.Quiet()()
	var names []string
	p.collectNames(flow, &names, 0)
	return names
}

// collectNames adds the variables the steps of flow set to names.
func (p *parser) collectNames(flow yamldoc.Node, names *[]string, depth int) {
	if depth > MaxFlowDepth {
		return
	}
	add := func(name string) {
		if isIdent(name) && !slices.Contains(reservedVars, name) && !slices.Contains(*names, name) {
			*names = append(*names, name)
		}
	}
	items, _ := p.List(flow, "")
	for _, item := range items {
		step, ok := p.Object(item, "", nil)
		if !ok {
			continue
		}
		for _, key := range []string{"extract", "set"} {
			if ex, ok := step.Get(key); ok {
				if vars, ok := p.Object(ex, "", nil); ok {
					for _, f := range vars.Fields {
						add(f.Name)
					}
				}
			}
		}
		if as, ok := step.Get("as"); ok {
			add(yamldoc.ScalarText(as.V))
		}
		if replies, ok := step.Get("reply"); ok { // a ws: step's replies extract too
			p.collectNames(replies, names, depth+1)
		}
		for _, key := range []string{"steps", "then", "else"} {
			if sub, ok := step.Get(key); ok {
				p.collectNames(sub, names, depth+1)
			}
		}
		if ch, ok := step.Get("choose"); ok {
			branches, _ := p.List(ch, "")
			for _, br := range branches {
				if o, ok := p.Object(br, "", nil); ok {
					if sub, ok := o.Get("steps"); ok {
						p.collectNames(sub, names, depth+1)
					}
				}
			}
		}
	}
}

// vuVarNames adds the names of a scenario's vu_vars to its variables,
// right after its data columns, and returns them; the engine keeps these
// slots across a VU's iterations.
func (p *parser) vuVarNames(n yamldoc.Node, s *Scenario) []string {
	defer p.Quiet()()
	o, ok := p.Object(n, "", nil)
	if !ok {
		return nil
	}
	var names []string
	for _, f := range o.Fields {
		if isIdent(f.Name) && !slices.Contains(reservedVars, f.Name) && !slices.Contains(s.Vars, f.Name) {
			names = append(names, f.Name)
			s.Vars = append(s.Vars, f.Name)
		}
	}
	return names
}

// isIdent reports whether s is a valid variable name: [A-Za-z_][A-Za-z0-9_]*.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// checkVarName reports an invalid or reserved variable name, quoting an
// excerpt: a CSV header may be the first line of a file that is no CSV (a
// link to /etc/shadow), which an error must not echo.
func (p *parser) checkVarName(at yamldoc.Pos, path, what, name string) bool {
	switch {
	case !isIdent(name):
		p.Errs.Add(at, path, "%s %q is not a valid variable name (use letters, digits and _, not starting with a digit)", what, yamldoc.Excerpt(name))
	case slices.Contains(reservedVars, name):
		p.Errs.Add(at, path, "%s %q is reserved (built-ins: %s)", what, name, strings.Join(reservedVars, ", "))
	default:
		return true
	}
	return false
}
