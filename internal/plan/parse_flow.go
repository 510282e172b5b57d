package plan

import (
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// methodKeys are the shorthand request keys: `get: /path` and so on.
var methodKeys = []string{"get", "post", "put", "patch", "delete", "head", "options"}

// stepKeys are the keys a flow step may have.
var stepKeys = append(append([]string{}, methodKeys...),
	"method", "path", "name", "query", "headers", "timeout", "expect_status", "redirects", "max_body", "json", "form", "body", "body_file", "check", "extract", "think")

// stepAndControlKeys are every key a step may start with, for suggestions.
var stepAndControlKeys = append(append(slices.Clone(stepKeys), controlOrder...), "sse", "ws", "grpc")

// flow parses a scenario's list of steps.
func (p *parser) flow(n node, sc *scenarioCtx) []Step {
	items, ok := p.list(n, "a list of steps")
	if !ok {
		return nil
	}
	var steps []Step
	for _, item := range items {
		st, ok := p.step(item, sc)
		if !ok {
			continue
		}
		steps = append(steps, st)
	}
	requests := 0
	Walk(steps, func(st *Step) {
		if st.Kind == RequestStep || st.Kind == SessionStep {
			requests++
		}
	})
	if requests == 0 && len(steps) == len(items) && !p.errs.failed() {
		p.errs.add(n.key, n.path, "needs at least one request step (get: /path, post: /path, ...)")
	}
	return steps
}

// step parses one flow step: a request, a think, a session or a control-flow step.
func (p *parser) step(n node, sc *scenarioCtx) (Step, bool) {
	o, ok := p.object(n, "a step (get: /path, think: 1s, group: name, ...)", nil)
	if !ok {
		return Step{}, false
	}
	if kind := p.controlKind(o); kind != "" {
		return p.control(kind, o, sc)
	}
	if o.has("sse") {
		return p.sseStep(o, sc)
	}
	if o.has("ws") {
		return p.wsStep(o, sc)
	}
	if o.has("grpc") {
		return p.grpcStep(o, sc)
	}
	o.fields = slices.DeleteFunc(o.fields, func(f field) bool {
		if slices.Contains(stepKeys, f.name) {
			return false
		}
		p.unknownKey(f, n.path, stepAndControlKeys)
		return true
	})
	if t, ok := o.get("think"); ok {
		for _, f := range o.fields {
			if f.name != "think" {
				p.errs.add(f.val.key, f.val.path, "a think step has no other keys; %q belongs on a request step", f.name)
			}
		}
		lo, hi, ok := p.think(t)
		return Step{Kind: ThinkStep, ThinkMin: lo, ThinkMax: hi}, ok
	}
	r, ok := p.request(o, sc)
	return Step{Kind: RequestStep, Request: r}, ok
}

// think parses a pause: 1s, 1s..3s or {min: 1s, max: 3s}.
func (p *parser) think(n node) (lo, hi time.Duration, ok bool) {
	switch v := n.v.(type) {
	case *ast.StringNode:
		if i := strings.Index(v.Value, ".."); i >= 0 {
			lo, okLo := p.durationText(n, v.Value[:i], 0)
			hi, okHi := p.durationText(n, v.Value[i+2:], i+2)
			return p.thinkRange(n, lo, hi, okLo && okHi)
		}
		d, ok := p.durationText(n, v.Value, 0)
		return d, d, ok
	case *ast.MappingNode, *ast.MappingValueNode:
		o, ok := p.object(n, "", []string{"min", "max"})
		if !ok {
			return 0, 0, false
		}
		okLo, okHi := true, true
		if m, has := o.get("min"); has {
			lo, okLo = p.duration(m)
		} else {
			p.errs.missing(n.key, n.path, n.path, "missing key \"min\"")
			okLo = false
		}
		if m, has := o.get("max"); has {
			hi, okHi = p.duration(m)
		} else {
			p.errs.missing(n.key, n.path, n.path, "missing key \"max\"")
			okHi = false
		}
		return p.thinkRange(n, lo, hi, okLo && okHi)
	case *ast.IntegerNode, *ast.FloatNode:
		d, ok := p.duration(n)
		return d, d, ok
	}
	p.typeError(n, "a think time like 1s, 1s..3s or {min: 1s, max: 3s}")
	return 0, 0, false
}

// thinkRange checks that a think range is not reversed.
func (p *parser) thinkRange(n node, lo, hi time.Duration, ok bool) (time.Duration, time.Duration, bool) {
	if ok && lo > hi {
		p.errs.add(n.pos, n.path, "the minimum %s is more than the maximum %s", lo, hi)
		return 0, 0, false
	}
	return lo, hi, ok
}
