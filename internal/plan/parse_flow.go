package plan

import (
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// methodKeys are the shorthand request keys: `get: /path` and so on.
var methodKeys = []string{"get", "post", "put", "patch", "delete", "head", "options"}

// stepKeys are the keys a flow step may have.
var stepKeys = append(append([]string{}, methodKeys...),
	"method", "path", "name", "query", "headers", "timeout", "expect_status", "redirects", "max_body", "json", "form", "body", "body_file", "check", "extract", "think")

// stepAndControlKeys are every key a step may start with, for suggestions.
var stepAndControlKeys = append(append(slices.Clone(stepKeys), controlOrder...), "sse", "ws", "grpc")

// flow parses a scenario's list of steps.
func (p *parser) flow(n yamldoc.Node, sc *scenarioCtx) []Step {
	items, ok := p.List(n, "a list of steps")
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
	if requests == 0 && len(steps) == len(items) && !p.Errs.Failed() {
		p.Errs.Add(n.Key, n.Path, "needs at least one request step (get: /path, post: /path, ...)")
	}
	return steps
}

// step parses one flow step: a request, a think, a session or a control-flow step.
func (p *parser) step(n yamldoc.Node, sc *scenarioCtx) (Step, bool) {
	o, ok := p.Object(n, "a step (get: /path, think: 1s, group: name, ...)", nil)
	if !ok {
		return Step{}, false
	}
	if kind := p.controlKind(o); kind != "" {
		return p.control(kind, o, sc)
	}
	if o.Has("sse") {
		return p.sseStep(o, sc)
	}
	if o.Has("ws") {
		return p.wsStep(o, sc)
	}
	if o.Has("grpc") {
		return p.grpcStep(o, sc)
	}
	o.Fields = slices.DeleteFunc(o.Fields, func(f yamldoc.Field) bool {
		if slices.Contains(stepKeys, f.Name) {
			return false
		}
		p.UnknownKey(f, n.Path, stepAndControlKeys)
		return true
	})
	if t, ok := o.Get("think"); ok {
		for _, f := range o.Fields {
			if f.Name != "think" {
				p.Errs.Add(f.Value.Key, f.Value.Path, "a think step has no other keys; %q belongs on a request step", f.Name)
			}
		}
		lo, hi, ok := p.think(t)
		return Step{Kind: ThinkStep, ThinkMin: lo, ThinkMax: hi}, ok
	}
	r, ok := p.request(o, sc)
	return Step{Kind: RequestStep, Request: r}, ok
}

// think parses a pause: 1s, 1s..3s or {min: 1s, max: 3s}.
func (p *parser) think(n yamldoc.Node) (lo, hi time.Duration, ok bool) {
	switch v := n.V.(type) {
	case *ast.StringNode:
		if i := strings.Index(v.Value, ".."); i >= 0 {
			lo, okLo := p.DurationText(n, v.Value[:i], 0)
			hi, okHi := p.DurationText(n, v.Value[i+2:], i+2)
			return p.thinkRange(n, lo, hi, okLo && okHi)
		}
		d, ok := p.DurationText(n, v.Value, 0)
		return d, d, ok
	case *ast.MappingNode, *ast.MappingValueNode:
		o, ok := p.Object(n, "", []string{"min", "max"})
		if !ok {
			return 0, 0, false
		}
		okLo, okHi := true, true
		if m, has := o.Get("min"); has {
			lo, okLo = p.Duration(m)
		} else {
			p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"min\"")
			okLo = false
		}
		if m, has := o.Get("max"); has {
			hi, okHi = p.Duration(m)
		} else {
			p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"max\"")
			okHi = false
		}
		return p.thinkRange(n, lo, hi, okLo && okHi)
	case *ast.IntegerNode, *ast.FloatNode:
		d, ok := p.Duration(n)
		return d, d, ok
	}
	p.TypeError(n, "a think time like 1s, 1s..3s or {min: 1s, max: 3s}")
	return 0, 0, false
}

// thinkRange checks that a think range is not reversed.
func (p *parser) thinkRange(n yamldoc.Node, lo, hi time.Duration, ok bool) (time.Duration, time.Duration, bool) {
	if ok && lo > hi {
		p.Errs.Add(n.Pos, n.Path, "the minimum %s is more than the maximum %s", lo, hi)
		return 0, 0, false
	}
	return lo, hi, ok
}

// sessionStep begins a session step whose key is protocol (written step,
// "a ws:", in messages): its keys checked against keys, and refused outside
// a scenario's flow, where nothing is measured. It returns the session and
// the protocol key's value.
func (p *parser) sessionStep(o *yamldoc.Object, sc *scenarioCtx, step, protocol string, keys []string) (*Session, yamldoc.Node, bool) {
	for _, f := range o.Fields {
		if !slices.Contains(keys, f.Name) {
			p.UnknownKey(f, o.Path, keys)
		}
	}
	n, _ := o.Get(protocol)
	if sc.s.ID < 0 {
		p.Errs.Add(n.Key, n.Path, "%s step is measured, so it belongs in a scenario's flow, not in setup: or teardown:", step)
		return nil, n, false
	}
	return &Session{Protocol: protocol, Endpoint: -1, Timeout: sc.def.timeout, MaxMessage: DefaultMaxMessage}, n, true
}
