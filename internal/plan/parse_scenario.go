package plan

import (
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
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
func (p *parser) scenarios(n node, def *defaults) []*Scenario {
	o, ok := p.object(n, "a mapping of scenario names to scenarios", nil)
	if !ok {
		return nil
	}
	if len(o.fields) == 0 {
		p.errs.add(n.pos, n.path, "needs at least one scenario")
		return nil
	}
	var out []*Scenario
	p.needs = map[*Scenario]vuNeed{}
	for _, f := range o.fields {
		if !namePattern.MatchString(f.name) {
			p.errs.add(f.val.key, f.val.path, "scenario name %q may only use letters, digits, '.', '_' and '-'", f.name)
			continue
		}
		if s := p.scenario(f.name, f.val, def); s != nil {
			out = append(out, s)
		}
	}
	if !p.errs.failed() {
		p.checkTotalVUs(out, p.needs, n)
	}
	return out
}

// scenario parses one scenario.
func (p *parser) scenario(name string, n node, def *defaults) *Scenario {
	o, ok := p.object(n, "a scenario (a mapping with model, flow, ...)", nil)
	if !ok {
		return nil
	}
	model, modelOK := p.model(o)
	p.scenarioKeys(o, model, modelOK)
	s := &Scenario{ID: p.layout.scenario(name, model), Name: name, GracefulStop: DefaultGracefulStop, HTTP2: def.http2}
	if d, ok := o.get("data"); ok {
		s.Data = p.data(d)
		p.missingVars = s.Data == nil
		defer func() { p.missingVars = false }()
	}
	flowNode, hasFlow := o.get("flow")
	if s.Data != nil {
		s.Vars = slices.Clone(s.Data.Columns)
	}
	vuVars, hasVUVars := o.get("vu_vars")
	if hasVUVars {
		s.VUVars = len(p.vuVarNames(vuVars, s))
	}
	s.SetupAt = len(s.Vars)
	for _, v := range p.setupVars {
		if slices.Contains(s.Vars, v) {
			p.errs.add(n.key, n.path, "variable %q is set by setup:, which every scenario reads; rename the data column or vu_var", v)
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
	sc := &scenarioCtx{s: s, scope: scenarioScope(s, p.env), def: def}
	if hasVUVars {
		var columns []string
		if s.Data != nil {
			columns = s.Data.Columns
		}
		s.VUSets = p.sets(vuVars, sc, columns)
	}
	if hasFlow {
		s.Flow = p.flow(flowNode, sc)
	} else {
		p.errs.missing(n.key, n.path, n.path, "missing key \"flow\": the list of steps each iteration runs")
	}
	p.length = lengthSum{}
	if modelOK {
		var need vuNeed
		s.Load, need = p.load(o, model, s.Flow)
		if need.vus > 0 || need.defaults {
			p.needs[s] = need
		}
	}
	if v, ok := o.get("start_time"); ok {
		s.StartTime, _ = p.duration(v)
	}
	if !p.override.IsZero() {
		p.applyOverride(s)
	}
	if v, ok := o.get("graceful_stop"); ok {
		s.GracefulStop, _ = p.duration(v)
	}
	p.checkLength(o, s)
	if v, ok := o.get("http2"); ok {
		s.HTTP2, _ = p.boolean(v)
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
func (p *parser) model(o *object) (Model, bool) {
	if n, ok := o.get("model"); ok {
		s, ok := p.oneOf(n, "arrival-rate", "vus", "iterations")
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
	iterationKeys := o.has("iterations") || o.has("max_duration")
	for _, f := range o.fields {
		switch f.name {
		case "iterations", "max_duration":
			hints = append(hints, hint{f.name, Iterations})
		case "rate", "start_rate", "time_unit", "pre_allocated_vus", "max_vus", "arrival_slack":
			hints = append(hints, hint{f.name, ArrivalRate})
		case "start_vus", "graceful_ramp_down":
			hints = append(hints, hint{f.name, VUs})
		case "vus":
			if !iterationKeys {
				hints = append(hints, hint{f.name, VUs})
			}
		}
	}
	if len(hints) == 0 {
		p.errs.missing(o.key, o.path, o.path, "missing key \"model\" (arrival-rate, vus or iterations): it cannot be inferred without rate, vus or iterations")
		return ArrivalRate, false
	}
	for _, h := range hints[1:] {
		if h.model != hints[0].model {
			p.errs.add(o.keyPos(h.key), o.path, "cannot infer the model: %q means %s but %q means %s; set model:",
				hints[0].key, hints[0].model, h.key, h.model)
			return ArrivalRate, false
		}
	}
	return hints[0].model, true
}

// scenarioKeys reports unknown keys, listing the keys of the scenario's
// model when it is known, and keys that belong to another model.
func (p *parser) scenarioKeys(o *object, m Model, known bool) {
	allowed := allScenarioKeys
	if known {
		allowed = append(slices.Clone(commonScenarioKeys), modelKeys[m]...)
	}
	for _, f := range o.fields {
		switch {
		case !slices.Contains(allScenarioKeys, f.name):
			p.unknownKey(f, o.path, allowed)
		case !slices.Contains(allowed, f.name):
			p.errs.add(f.val.key, f.val.path, "%q does not apply to a %s scenario (allowed: %s)", f.name, m, strings.Join(allowed, ", "))
		}
	}
}

// extractNames pre-scans a flow for the names of the variables its steps
// set (extract:, set:, for_each's as:), nested steps included, so that
// templates anywhere in the flow can use them. The real pass reports any
// error, so this one is quiet.
func (p *parser) extractNames(flow node) []string {
	p.errs.quiet++
	defer func() { p.errs.quiet-- }()
	budget := p.doc.budget
	defer func() { p.doc.budget = budget }() // the real pass walks the same nodes
	var names []string
	p.collectNames(flow, &names, 0)
	return names
}

// collectNames adds the variables the steps of flow set to names.
func (p *parser) collectNames(flow node, names *[]string, depth int) {
	if depth > MaxFlowDepth {
		return
	}
	add := func(name string) {
		if isIdent(name) && !slices.Contains(reservedVars, name) && !slices.Contains(*names, name) {
			*names = append(*names, name)
		}
	}
	items, _ := p.list(flow, "")
	for _, item := range items {
		step, ok := p.object(item, "", nil)
		if !ok {
			continue
		}
		for _, key := range []string{"extract", "set"} {
			if ex, ok := step.get(key); ok {
				if vars, ok := p.object(ex, "", nil); ok {
					for _, f := range vars.fields {
						add(f.name)
					}
				}
			}
		}
		if as, ok := step.get("as"); ok {
			add(scalarText(as.v))
		}
		if replies, ok := step.get("reply"); ok { // a ws: step's replies extract too
			p.collectNames(replies, names, depth+1)
		}
		for _, key := range []string{"steps", "then", "else"} {
			if sub, ok := step.get(key); ok {
				p.collectNames(sub, names, depth+1)
			}
		}
		if ch, ok := step.get("choose"); ok {
			branches, _ := p.list(ch, "")
			for _, br := range branches {
				if o, ok := p.object(br, "", nil); ok {
					if sub, ok := o.get("steps"); ok {
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
func (p *parser) vuVarNames(n node, s *Scenario) []string {
	p.errs.quiet++
	defer func() { p.errs.quiet-- }()
	budget := p.doc.budget
	defer func() { p.doc.budget = budget }()
	o, ok := p.object(n, "", nil)
	if !ok {
		return nil
	}
	var names []string
	for _, f := range o.fields {
		if isIdent(f.name) && !slices.Contains(reservedVars, f.name) && !slices.Contains(s.Vars, f.name) {
			names = append(names, f.name)
			s.Vars = append(s.Vars, f.name)
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

// checkVarName reports an invalid or reserved variable name.
func (p *parser) checkVarName(at pos, path, what, name string) bool {
	switch {
	case !isIdent(name):
		p.errs.add(at, path, "%s %q is not a valid variable name (use letters, digits and _, not starting with a digit)", what, name)
	case slices.Contains(reservedVars, name):
		p.errs.add(at, path, "%s %q is reserved (built-ins: %s)", what, name, strings.Join(reservedVars, ", "))
	default:
		return true
	}
	return false
}
