package k6

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/loadlens/loadlens/internal/importer"
)

// metricDecl is a custom metric the script declares (new Counter(name)).
type metricDecl struct {
	name, kind string // kind: counter, rate, trend or gauge
	time       bool   // a Trend(name, true): times in ms
	at         string // where it is declared, for notes
	added      bool   // a flow adds to it: the test declares it
}

// metricName is a name a test's metric may have.
var metricName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// metricNew evaluates new Counter(name), new Rate(name), new Trend(name,
// isTime) and new Gauge(name) of k6/metrics.
func (s *script) metricNew(n *js.NewExpr) value {
	v, ok := n.X.(*js.Var)
	if !ok {
		return value{}
	}
	kind := strings.ToLower(s.metricClass[string(v.Data)])
	if kind == "" {
		return value{}
	}
	var args []js.Arg
	if n.Args != nil {
		args = n.Args.List
	}
	at := s.at(snippet(n))
	if len(args) == 0 {
		return value{}
	}
	name, ok := s.eval(args[0].Value, nil).asText()
	if !ok || strings.Contains(name, "{{") {
		s.note("%s: a metric whose name the import cannot work out: %s", at, snippet(n))
		return value{}
	}
	m := &metricDecl{name: name, kind: kind, at: at}
	if len(args) > 1 {
		if t := s.eval(args[1].Value, nil); t.kind == "bool" && t.b && kind == "trend" {
			m.time = true
		}
	}
	s.metrics = append(s.metrics, m)
	return value{kind: "metric", ref: m}
}

// metricAdd converts metric.add(value, tags) into an add: step when the
// value is a number, a boolean or a value extracted from a response.
func (f *flow) metricAdd(m *metricDecl, name string, args []js.Arg, c *js.CallExpr) (value, bool) {
	at := f.s.at(snippet(c))
	switch {
	case name != "add" || len(args) == 0:
		f.s.note("%s: %s", at, snippet(c))
		return value{}, true
	case m.kind == "gauge":
		f.s.note("%s: %s: %s is a Gauge (a test's metrics are counters, rates and trends)", at, snippet(c), m.name)
		return value{}, true
	case !metricName.MatchString(m.name) || builtinMetric(m.name):
		f.s.note("%s: %s: a test's metric may not be named %q", at, snippet(c), m.name)
		return value{}, true
	}
	if step, code, neg, ok := f.statusTest(args[0].Value); ok && m.kind == "rate" {
		return f.addCondition(m, step, fmt.Sprintf("{status: %d}", code), neg, c), true
	}
	if step, neg, whole, ok := f.checkResult(args[0].Value); ok {
		if !whole {
			f.s.note("%s: %s: the result of a check not converted whole, or of a response checked twice", at, snippet(c))
			return value{}, true
		}
		return f.addCondition(m, step, "{checks: passed}", neg, c), true
	}
	v, ok := f.metricValue(args[0].Value)
	if !ok {
		f.s.note("%s: %s (%s)", at, snippet(c), unconvertedValue(args[0].Value))
		return value{}, true
	}
	if len(args) > 1 {
		f.s.note("%s: the tags of %s (a test's metric is filtered by scenario only)", at, snippet(c))
	}
	if !f.s.room() {
		return value{}, true
	}
	m.added = true
	f.steps = append(f.steps, importer.Step{Add: []importer.KV{{Key: m.name, Value: v}}})
	return value{}, true
}

// metricValue returns a value an add: step takes: a number or a boolean
// as written (Raw), or an extracted variable's template.
func (f *flow) metricValue(e js.IExpr) (any, bool) {
	if n, ok := f.number(e); ok {
		return importer.Raw(strconv.FormatFloat(n, 'f', -1, 64)), true
	}
	v := f.s.eval(e, f)
	switch v.kind {
	case "bool":
		if v.b {
			return importer.Raw("true"), true
		}
		return importer.Raw("false"), true
	case "str":
		// only a variable an extraction sets: text a script computes is no number
		if t := strings.TrimSpace(v.text); strings.HasPrefix(t, "{{ ") && strings.HasSuffix(t, " }}") && f.vars[strings.TrimSpace(t[3:len(t)-3])] {
			return t, true
		}
	}
	return nil, false
}

// builtinMetric reports whether name is a metric loadlens has already.
func builtinMetric(name string) bool {
	if thresholdMetrics[name] || slices.Contains([]string{"group_duration", "checks", "http_req_sending", "http_req_receiving", "http_req_blocked"}, name) {
		return true
	}
	for _, p := range []string{"grpc_", "ws_", "sse_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// declareMetrics writes the custom metrics some flow adds to.
func (s *script) declareMetrics() {
	for _, m := range s.metrics {
		if !m.added || slices.ContainsFunc(s.t.Metrics, func(kv importer.KV) bool { return kv.Key == m.name }) {
			continue
		}
		var v any = m.kind
		if m.time {
			v = []importer.KV{{Key: "type", Value: "trend"}, {Key: "time", Value: importer.Raw("true")}}
		}
		s.t.Metrics = append(s.t.Metrics, importer.KV{Key: m.name, Value: v})
	}
}

// customMetric returns the declared metric a threshold names, when a flow adds to it.
func (s *script) customMetric(name string) (*metricDecl, bool) {
	for _, m := range s.metrics {
		if m.name == name {
			return m, true
		}
	}
	return nil, false
}

// checkResult reads a check's result, check(...) or !check(...) or a
// variable holding one: its response's step, and whether it is negated.
func (f *flow) checkResult(e js.IExpr) (step int, neg, whole, ok bool) {
	if u, isNot := e.(*js.UnaryExpr); isNot && u.Op == js.NotToken {
		step, neg, whole, ok = f.checkResult(u.X)
		return step, !neg, whole, ok
	}
	if g, isGroup := e.(*js.GroupExpr); isGroup {
		return f.checkResult(g.X)
	}
	var v value
	switch n := e.(type) {
	case *js.Var:
		v = f.s.evalVar(n, f)
	case *js.CallExpr:
		if _, name := calleeName(n.X); f.s.k6[name] == "check" {
			v, _ = f.call(n)
		}
	}
	return v.step, false, v.b, v.kind == "checked"
}

// statusTest reads res.status === N (or !==, ==, !=): the step of res's
// request, N, and whether it is negated.
func (f *flow) statusTest(e js.IExpr) (step, code int, neg, ok bool) {
	if g, isGroup := e.(*js.GroupExpr); isGroup {
		return f.statusTest(g.X)
	}
	b, isBinary := e.(*js.BinaryExpr)
	if !isBinary {
		return 0, 0, false, false
	}
	op := compareOp(b.Op)
	d, isDot := b.X.(*js.DotExpr)
	if (op != "eq" && op != "ne") || !isDot || string(d.Y.(js.LiteralExpr).Data) != "status" {
		return 0, 0, false, false
	}
	res, n := f.s.eval(d.X, f), f.s.eval(b.Y, f)
	code, err := strconv.Atoi(n.text)
	if res.kind != "resp" || n.kind != "num" || err != nil || f.steps[res.step].Method == "" {
		return 0, 0, false, false
	}
	return res.step, code, op == "ne", true
}

// addCondition converts rate.add(passed), where passed is a check's
// result, or rate.add(res.status === 200), into an if: on the last
// request's checks or status (cond), which are that request's when no
// request came after it; else it says why not.
func (f *flow) addCondition(m *metricDecl, step int, cond string, neg bool, c *js.CallExpr) value {
	for _, st := range f.steps[step+1:] {
		if st.Method != "" || st.GRPC != nil || st.WS != nil || len(st.Extract) > 0 {
			f.s.note("%s: %s: a response's check or status after another request (a test's if: reads the last request's)", f.s.at(snippet(c)), snippet(c))
			return value{}
		}
	}
	if !f.s.room() {
		return value{}
	}
	yes, no := importer.Raw("true"), importer.Raw("false")
	if neg {
		yes, no = no, yes
	}
	m.added = true
	f.steps = append(f.steps, importer.Step{If: cond,
		Then: []importer.Step{{Add: []importer.KV{{Key: m.name, Value: yes}}}},
		Else: []importer.Step{{Add: []importer.KV{{Key: m.name, Value: no}}}}})
	return value{}
}

// unconvertedValue says why a metric's value was not converted: a
// response's timings are no value a step extracts, but a request's own
// duration is measured, under its name.
func unconvertedValue(e js.IExpr) string {
	if strings.Contains(snippet(e), ".timings.") {
		return "a response's timings are not a value an add: step takes; each request's duration is " +
			"http_req_duration{name:…}, which thresholds judge"
	}
	return "a metric's value is converted when it is a number, a boolean, or a value extracted from a response's body, headers or status"
}
