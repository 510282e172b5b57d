package plan

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// controlKeys are the control-flow steps, each with the keys it may have.
var controlKeys = map[string][]string{
	"group":    {"group", "steps"},
	"repeat":   {"repeat", "steps"},
	"for_each": {"for_each", "as", "path", "max", "steps"},
	"if":       {"if", "then", "else"},
	"unless":   {"unless", "then", "else"},
	"choose":   {"choose"},
	"set":      {"set"},
	"add":      {"add"},
}

// controlOrder lists controlKeys' keys in the order messages name them.
var controlOrder = []string{"group", "repeat", "for_each", "if", "unless", "choose", "set", "add"}

// controlKind returns the control-flow key of step o, "" for a request or a
// think, reporting a step that has two.
func (p *parser) controlKind(o *yamldoc.Object) string {
	kind := ""
	for _, f := range o.Fields {
		if _, ok := controlKeys[f.Name]; !ok {
			continue
		}
		if kind != "" {
			p.Errs.Add(f.Value.Key, f.Value.Path, "a step is one thing: %s and %s both given; nest one in the other's steps", kind, f.Name)
			continue
		}
		kind = f.Name
	}
	return kind
}

// control parses a control-flow step of the given kind.
func (p *parser) control(kind string, o *yamldoc.Object, sc *scenarioCtx) (Step, bool) {
	errsBefore := p.Errs.Len()
	allowed := controlKeys[kind]
	for _, f := range o.Fields {
		if _, other := controlKeys[f.Name]; !other && !slices.Contains(allowed, f.Name) {
			p.Errs.Add(f.Value.Key, f.Value.Path, "%q does not go with %s: (its keys: %s)", f.Name, kind, strings.Join(allowed, ", "))
		}
	}
	if sc.depth >= MaxFlowDepth {
		p.Errs.Add(o.KeyPos(kind), yamldoc.JoinPath(o.Path, kind), "control-flow steps nest at most %d deep", MaxFlowDepth)
		return Step{}, false
	}
	sc.depth++
	defer func() { sc.depth-- }()
	val, _ := o.Get(kind)
	var st Step
	switch kind {
	case "group":
		st = p.group(o, val, sc)
	case "repeat":
		st = Step{Kind: RepeatStep, Block: &Block{}}
		if n, ok := p.Integer(val, 1); ok && n > MaxRepeat {
			p.Errs.Add(val.Pos, val.Path, "at most %d repeats, got %d", MaxRepeat, n)
		} else if ok {
			st.Block.Count = int(n)
		}
		st.Block.Steps = p.subflow(o, "steps", sc)
	case "for_each":
		st = p.forEach(o, val, sc)
	case "if", "unless":
		st = Step{Kind: IfStep, Block: &Block{Cond: p.cond(val, sc, kind == "unless")}}
		st.Block.Steps = p.subflow(o, "then", sc)
		if o.Has("else") {
			st.Block.Else = p.subflow(o, "else", sc)
		}
	case "choose":
		st = p.choose(val, sc)
	case "set":
		st = Step{Kind: SetStep, Block: &Block{Sets: p.sets(val, sc, nil)}}
	case "add":
		st = Step{Kind: AddStep, Block: &Block{Adds: p.adds(val, sc)}}
	}
	return st, p.Errs.Len() == errsBefore
}

// subflow parses the required list of steps under key.
func (p *parser) subflow(o *yamldoc.Object, key string, sc *scenarioCtx) []Step {
	n, ok := o.Get(key)
	if !ok {
		p.Errs.Missing(o.Key, o.Path, o.Path, "missing key %q: the list of steps it runs", key)
		return nil
	}
	items, ok := p.List(n, "a list of steps")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.Errs.Add(n.Pos, n.Path, "needs at least one step")
	}
	var out []Step
	for _, item := range items {
		if st, ok := p.step(item, sc); ok {
			out = append(out, st)
		}
	}
	return out
}

// group parses `group: name` and its steps; a nested group's name is
// its parents' and its own joined by "::", as k6 tags it.
func (p *parser) group(o *yamldoc.Object, val yamldoc.Node, sc *scenarioCtx) Step {
	st := Step{Kind: GroupStep, Block: &Block{Group: -1}}
	name, ok := p.NonEmpty(val, "a group name")
	if ok && strings.Contains(name, "::") {
		p.Errs.Add(val.Pos, val.Path, "a group name may not contain \"::\", which joins nested groups' names")
		ok = false
	}
	outer := sc.group
	if ok {
		st.Block.Name = outer + "::" + name
		if sc.s.ID >= 0 { // a setup's group is not measured
			st.Block.Group = p.layout.group(sc.s.ID, st.Block.Name)
		}
	}
	sc.group = st.Block.Name
	st.Block.Steps = p.subflow(o, "steps", sc)
	sc.group = outer
	return st
}

// forEach parses `for_each: VAR` with as:, path: and max:.
func (p *parser) forEach(o *yamldoc.Object, val yamldoc.Node, sc *scenarioCtx) Step {
	b := &Block{Count: DefaultForEach}
	if name, ok := p.NonEmpty(val, "the name of a variable holding a JSON array"); ok {
		b.List = p.varSlot(val, name, sc)
	}
	if n, ok := o.Get("as"); ok {
		if name, ok := p.NonEmpty(n, "a variable name"); ok && p.checkVarName(n.Pos, n.Path, "variable", name) {
			b.Var = p.varSlot(n, name, sc)
		}
	} else {
		p.Errs.Missing(o.Key, o.Path, o.Path, "missing key \"as\": the variable each element is put in")
	}
	if n, ok := o.Get("path"); ok {
		if src, ok := p.NonEmpty(n, "a JSON path into each element, like $.id"); ok {
			b.Path, _ = p.ParseJSONPath(n, src)
		}
	}
	if n, ok := o.Get("max"); ok {
		if m, ok := p.Integer(n, 1); ok && m > MaxForEach {
			p.Errs.Add(n.Pos, n.Path, "max is at most %d, got %d", MaxForEach, m)
		} else if ok {
			b.Count = int(m)
		}
	}
	b.Steps = p.subflow(o, "steps", sc)
	return Step{Kind: ForEachStep, Block: b}
}

// varSlot returns the slot of variable name, reporting one the scenario
// does not define.
func (p *parser) varSlot(n yamldoc.Node, name string, sc *scenarioCtx) int {
	if i, ok := sc.scope.Vars[name]; ok {
		return i
	}
	if !p.MissingVars {
		known := slices.Sorted(func(yield func(string) bool) {
			for k := range sc.scope.Vars {
				if !yield(k) {
					return
				}
			}
		})
		p.Errs.Add(n.Pos, n.Path, "unknown variable %q (known: %s)", name, strings.Join(known, ", "))
	}
	return 0
}

// choose parses a list of {weight: N, steps: [...]}.
func (p *parser) choose(val yamldoc.Node, sc *scenarioCtx) Step {
	b := &Block{}
	items, ok := p.List(val, "a list of branches like {weight: 3, steps: [...]}")
	if !ok {
		return Step{Kind: ChooseStep, Block: b}
	}
	if len(items) < 2 {
		p.Errs.Add(val.Pos, val.Path, "choose needs at least two branches")
	}
	for _, item := range items {
		o, ok := p.Object(item, "a branch like {weight: 3, steps: [...]}", []string{"weight", "steps"})
		if !ok {
			continue
		}
		br := Branch{Weight: 1}
		if n, ok := o.Get("weight"); ok {
			if w, ok := p.Integer(n, 1); ok && w > maxChooseWeight {
				p.Errs.Add(n.Pos, n.Path, "a weight is at most %d, got %d", maxChooseWeight, w)
			} else if ok {
				br.Weight = int(w)
			}
		}
		br.Steps = p.subflow(o, "steps", sc)
		b.Total += br.Weight
		b.Paths = append(b.Paths, br)
	}
	return Step{Kind: ChooseStep, Block: b}
}

// sets parses a mapping of variable names to templates; a name in taken
// (a data column, for vu_vars) is an error.
func (p *parser) sets(val yamldoc.Node, sc *scenarioCtx, taken []string) []Set {
	o, ok := p.Object(val, "a mapping of variable names to values, like {page: \"1\"}", nil)
	if !ok {
		return nil
	}
	if len(o.Fields) == 0 {
		p.Errs.Add(val.Pos, val.Path, "needs at least one variable")
	}
	var out []Set
	for _, f := range o.Fields {
		if !p.checkVarName(f.Value.Key, f.Value.Path, "variable", f.Name) {
			continue
		}
		if slices.Contains(taken, f.Name) {
			p.Errs.Add(f.Value.Key, f.Value.Path, "variable %q is a column of the data file, which sets it each iteration", f.Name)
			continue
		}
		src, ok := p.setText(f.Value)
		if !ok {
			continue
		}
		t, ok := p.Compile(f.Value, src, sc.scope)
		if ok {
			out = append(out, Set{Var: sc.scope.Vars[f.Name], Name: f.Name, Value: t})
		}
	}
	return out
}

// setText returns a variable's value as written: text, or a number or
// boolean as it is written.
func (p *parser) setText(n yamldoc.Node) (string, bool) {
	switch n.V.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		p.TypeError(n, "a value (text, a number or a template)")
		return "", false
	}
	return yamldoc.ScalarText(n.V), true
}
