package plan

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// thresholdKeys are the keys of a threshold written as a mapping.
var thresholdKeys = []string{"threshold", "abort_on_fail", "delay_abort_eval"}

// thresholdExpr is one expression of a threshold key, with its options.
type thresholdExpr struct {
	n     yamldoc.Node // the expression's string
	expr  string
	abort bool
	delay time.Duration
}

// thresholds parses the thresholds mapping: metric key → expressions. It runs
// after the scenarios, so filters can be checked against the names they define.
func (p *parser) thresholds(n yamldoc.Node) []threshold.Threshold {
	o, ok := p.Object(n, "a mapping of metrics to threshold expressions", nil)
	if !ok {
		return nil
	}
	var out []threshold.Threshold
	for _, f := range o.Fields {
		metric, filter, err := threshold.ParseKeyIn(f.Name, p.customs)
		if err != nil {
			p.offsetError(f.Key, f.Value.Key, f.Value.Path, err)
			continue
		}
		key := p.aliasChecks(f.Name, filter)
		if !p.checkFilter(f, filter) || !p.customAdded(f, metric) || !p.factRecorded(f, metric) {
			continue
		}
		if slices.ContainsFunc(filter, func(t threshold.Tag) bool { return t.Key == "expected_response" }) {
			p.layout.layout.KeepExpected = true // only a test that asks keeps the successes' histogram
		}
		if !p.keepStatus(f, filter) {
			continue
		}
		for _, e := range p.thresholdExprs(f.Value) {
			if _, _, _, _, err := threshold.ParseExprIn(metric, e.expr, p.customs); err != nil {
				p.offsetError(e.n.V, e.n.Pos, e.n.Path, err)
				continue
			}
			th, err := threshold.NewIn(key, e.expr, p.customs)
			if err != nil {
				p.Errs.Add(e.n.Pos, e.n.Path, "%v", err)
				continue
			}
			th.AbortOnFail, th.DelayAbortEval = e.abort, e.delay
			out = append(out, th)
		}
	}
	return out
}

// maxStatuses bounds the statuses thresholds may name: each is a count and
// a histogram per endpoint in every second's snapshot.
const maxStatuses = 16

// keepStatus adds a filter's status to those the run keeps per endpoint
// (only a test that asks keeps them), reporting one too many.
func (p *parser) keepStatus(f yamldoc.Field, filter []threshold.Tag) bool {
	for _, t := range filter {
		if t.Key != "status" {
			continue
		}
		code, _ := strconv.Atoi(t.Value) // threshold.ParseKey checked it
		kept := &p.layout.layout.Statuses
		if slices.Contains(*kept, code) {
			return true
		}
		if len(*kept) == maxStatuses {
			p.Errs.Add(f.Value.Key, f.Value.Path, "thresholds name at most %d statuses", maxStatuses)
			return false
		}
		*kept = append(*kept, code)
		slices.Sort(*kept)
	}
	return true
}

// offsetError reports a threshold parse error at its offset in scalar n,
// or at fallback for other errors.
func (p *parser) offsetError(n ast.Node, fallback yamldoc.Pos, path string, err error) {
	var te *threshold.Error
	if errors.As(err, &te) {
		p.Errs.Add(p.Src.PosAt(n, te.Offset), path, "%s", te.Msg)
		return
	}
	p.Errs.Add(fallback, path, "%v", err)
}

// aliasChecks rewrites, in key and filter, a check named as earlier
// versions named a status list's check to the name the test's check has
// today (legacyCheckName), and returns the key.
func (p *parser) aliasChecks(key string, filter []threshold.Tag) string {
	known := p.layout.names("check")
	for i, tag := range filter {
		if tag.Key != "check" || slices.Contains(known, tag.Value) {
			continue
		}
		if alias := legacyCheckName(tag.Value); alias != tag.Value && slices.Contains(known, alias) {
			key = strings.Replace(key, tag.Value, alias, 1)
			filter[i].Value = alias
		}
	}
	return key
}

// checkFilter reports filter values naming a scenario, endpoint, check or
// method that the test does not define: such a threshold would silently
// pass for lack of data.
func (p *parser) checkFilter(f yamldoc.Field, filter []threshold.Tag) bool {
	ok := true
	for _, tag := range filter {
		var known []string
		switch tag.Key {
		case "scenario", "endpoint", "check", "group":
			known = p.layout.names(tag.Key)
		case "name":
			for _, e := range p.layout.layout.Endpoints {
				if short := strings.TrimPrefix(e.Name, e.Method+" "); !slices.Contains(known, short) {
					known = append(known, short)
				}
			}
			if slices.ContainsFunc(p.layout.layout.Endpoints, func(e sample.EndpointInfo) bool { return e.Name == tag.Value }) {
				continue
			}
		case "method":
			for _, e := range p.layout.layout.Endpoints {
				if !slices.Contains(known, e.Method) {
					known = append(known, e.Method)
				}
			}
		default:
			continue
		}
		if slices.Contains(known, tag.Value) {
			continue
		}
		at := f.Value.Key
		if i := strings.Index(f.Name, tag.Value); i >= 0 {
			at = p.Src.PosAt(f.Key, i)
		}
		msg := fmt.Sprintf("unknown %s %q", tag.Key, tag.Value)
		if s := yamldoc.Closest(tag.Value, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		defined := "the test defines: " + quoteList(known, 10)
		if broken := p.layout.broken; tag.Key == "check" && len(broken) > 0 {
			// Checks with errors of their own are defined too: saying
			// "none" of a test that has some misleads.
			bad := "1 check with an error of its own"
			if len(broken) > 1 {
				// plan does not import units; a count of checks needs no grouping
				bad = fmt.Sprintf("%d checks with errors of their own", len(broken))
			}
			bad += ", reported here: " + quoteList(broken, 10)
			if len(known) == 0 {
				defined = "the test defines only " + bad
			} else {
				defined += "; and " + bad
			}
		}
		p.Errs.Add(at, f.Value.Path, "%s (%s)", msg, defined)
		ok = false
	}
	return ok
}

// quoteList quotes up to limit names for a message.
func quoteList(names []string, limit int) string {
	if len(names) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, n := range names {
		if i == limit {
			fmt.Fprintf(&b, ", and %d more", len(names)-limit)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}

// thresholdExprs parses a threshold key's value: a string, a mapping with
// options, or a list of either.
func (p *parser) thresholdExprs(n yamldoc.Node) []thresholdExpr {
	items := []yamldoc.Node{n}
	if _, isList := n.V.(*ast.SequenceNode); isList {
		items, _ = p.List(n, "")
		if len(items) == 0 {
			p.Errs.Add(n.Pos, n.Path, "needs at least one expression like \"p(95) < 500ms\"")
		}
	}
	var out []thresholdExpr
	for _, item := range items {
		if !yamldoc.IsMapping(item.V) {
			if s, ok := p.NonEmpty(item, "an expression like \"p(95) < 500ms\", or a mapping with threshold and abort_on_fail"); ok {
				out = append(out, thresholdExpr{n: item, expr: s})
			}
			continue
		}
		o, ok := p.Object(item, "", thresholdKeys)
		if !ok {
			continue
		}
		exprNode, has := o.Get("threshold")
		if !has {
			p.Errs.Missing(item.Key, item.Path, item.Path, "missing key \"threshold\": the expression, like \"p(95) < 500ms\"")
			continue
		}
		s, ok := p.NonEmpty(exprNode, "an expression like \"p(95) < 500ms\"")
		if !ok {
			continue
		}
		e := thresholdExpr{n: exprNode, expr: s}
		if a, has := o.Get("abort_on_fail"); has {
			e.abort, _ = p.Bool(a)
		}
		if d, has := o.Get("delay_abort_eval"); has {
			e.delay, _ = p.Duration(d)
			if !e.abort {
				p.Errs.Add(d.Key, d.Path, "delay_abort_eval needs abort_on_fail: true")
			}
		}
		out = append(out, e)
	}
	return out
}
