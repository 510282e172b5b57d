package plan

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
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
func (p *parser) controlKind(o *object) string {
	kind := ""
	for _, f := range o.fields {
		if _, ok := controlKeys[f.name]; !ok {
			continue
		}
		if kind != "" {
			p.errs.add(f.val.key, f.val.path, "a step is one thing: %s and %s both given; nest one in the other's steps", kind, f.name)
			continue
		}
		kind = f.name
	}
	return kind
}

// control parses a control-flow step of the given kind.
func (p *parser) control(kind string, o *object, sc *scenarioCtx) (Step, bool) {
	errsBefore := len(p.errs.errs)
	allowed := controlKeys[kind]
	for _, f := range o.fields {
		if _, other := controlKeys[f.name]; !other && !slices.Contains(allowed, f.name) {
			p.errs.add(f.val.key, f.val.path, "%q does not go with %s: (its keys: %s)", f.name, kind, strings.Join(allowed, ", "))
		}
	}
	if sc.depth >= MaxFlowDepth {
		p.errs.add(o.keyPos(kind), joinPath(o.path, kind), "control-flow steps nest at most %d deep", MaxFlowDepth)
		return Step{}, false
	}
	sc.depth++
	defer func() { sc.depth-- }()
	val, _ := o.get(kind)
	var st Step
	switch kind {
	case "group":
		st = p.group(o, val, sc)
	case "repeat":
		st = Step{Kind: RepeatStep, Block: &Block{}}
		if n, ok := p.integer(val, 1); ok && n > MaxRepeat {
			p.errs.add(val.pos, val.path, "at most %d repeats, got %d", MaxRepeat, n)
		} else if ok {
			st.Block.Count = int(n)
		}
		st.Block.Steps = p.subflow(o, "steps", sc)
	case "for_each":
		st = p.forEach(o, val, sc)
	case "if", "unless":
		st = Step{Kind: IfStep, Block: &Block{Cond: p.cond(val, sc, kind == "unless")}}
		st.Block.Steps = p.subflow(o, "then", sc)
		if o.has("else") {
			st.Block.Else = p.subflow(o, "else", sc)
		}
	case "choose":
		st = p.choose(val, sc)
	case "set":
		st = Step{Kind: SetStep, Block: &Block{Sets: p.sets(val, sc, nil)}}
	case "add":
		st = Step{Kind: AddStep, Block: &Block{Adds: p.adds(val, sc)}}
	}
	return st, len(p.errs.errs) == errsBefore
}

// subflow parses the required list of steps under key.
func (p *parser) subflow(o *object, key string, sc *scenarioCtx) []Step {
	n, ok := o.get(key)
	if !ok {
		p.errs.missing(o.key, o.path, o.path, "missing key %q: the list of steps it runs", key)
		return nil
	}
	items, ok := p.list(n, "a list of steps")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.errs.add(n.pos, n.path, "needs at least one step")
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
func (p *parser) group(o *object, val node, sc *scenarioCtx) Step {
	st := Step{Kind: GroupStep, Block: &Block{Group: -1}}
	name, ok := p.nonEmpty(val, "a group name")
	if ok && strings.Contains(name, "::") {
		p.errs.add(val.pos, val.path, "a group name may not contain \"::\", which joins nested groups' names")
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
func (p *parser) forEach(o *object, val node, sc *scenarioCtx) Step {
	b := &Block{Count: DefaultForEach}
	if name, ok := p.nonEmpty(val, "the name of a variable holding a JSON array"); ok {
		b.List = p.varSlot(val, name, sc)
	}
	if n, ok := o.get("as"); ok {
		if name, ok := p.nonEmpty(n, "a variable name"); ok && p.checkVarName(n.pos, n.path, "variable", name) {
			b.Var = p.varSlot(n, name, sc)
		}
	} else {
		p.errs.missing(o.key, o.path, o.path, "missing key \"as\": the variable each element is put in")
	}
	if n, ok := o.get("path"); ok {
		if src, ok := p.nonEmpty(n, "a JSON path into each element, like $.id"); ok {
			b.Path, _ = p.jsonPath(n, src)
		}
	}
	if n, ok := o.get("max"); ok {
		if m, ok := p.integer(n, 1); ok && m > MaxForEach {
			p.errs.add(n.pos, n.path, "max is at most %d, got %d", MaxForEach, m)
		} else if ok {
			b.Count = int(m)
		}
	}
	b.Steps = p.subflow(o, "steps", sc)
	return Step{Kind: ForEachStep, Block: b}
}

// varSlot returns the slot of variable name, reporting one the scenario
// does not define.
func (p *parser) varSlot(n node, name string, sc *scenarioCtx) int {
	if i, ok := sc.scope.Vars[name]; ok {
		return i
	}
	if !p.missingVars {
		known := slices.Sorted(func(yield func(string) bool) {
			for k := range sc.scope.Vars {
				if !yield(k) {
					return
				}
			}
		})
		p.errs.add(n.pos, n.path, "unknown variable %q (known: %s)", name, strings.Join(known, ", "))
	}
	return 0
}

// choose parses a list of {weight: N, steps: [...]}.
func (p *parser) choose(val node, sc *scenarioCtx) Step {
	b := &Block{}
	items, ok := p.list(val, "a list of branches like {weight: 3, steps: [...]}")
	if !ok {
		return Step{Kind: ChooseStep, Block: b}
	}
	if len(items) < 2 {
		p.errs.add(val.pos, val.path, "choose needs at least two branches")
	}
	for _, item := range items {
		o, ok := p.object(item, "a branch like {weight: 3, steps: [...]}", []string{"weight", "steps"})
		if !ok {
			continue
		}
		br := Branch{Weight: 1}
		if n, ok := o.get("weight"); ok {
			if w, ok := p.integer(n, 1); ok && w > maxChooseWeight {
				p.errs.add(n.pos, n.path, "a weight is at most %d, got %d", maxChooseWeight, w)
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
func (p *parser) sets(val node, sc *scenarioCtx, taken []string) []Set {
	o, ok := p.object(val, "a mapping of variable names to values, like {page: \"1\"}", nil)
	if !ok {
		return nil
	}
	if len(o.fields) == 0 {
		p.errs.add(val.pos, val.path, "needs at least one variable")
	}
	var out []Set
	for _, f := range o.fields {
		if !p.checkVarName(f.val.key, f.val.path, "variable", f.name) {
			continue
		}
		if slices.Contains(taken, f.name) {
			p.errs.add(f.val.key, f.val.path, "variable %q is a column of the data file, which sets it each iteration", f.name)
			continue
		}
		src, ok := p.setText(f.val)
		if !ok {
			continue
		}
		t, ok := p.compile(f.val, src, sc.scope)
		if ok {
			out = append(out, Set{Var: sc.scope.Vars[f.name], Name: f.name, Value: t})
		}
	}
	return out
}

// setText returns a variable's value as written: text, or a number or
// boolean as it is written.
func (p *parser) setText(n node) (string, bool) {
	switch n.v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		p.typeError(n, "a value (text, a number or a template)")
		return "", false
	}
	return scalarText(n.v), true
}
