package plan

import (
	"fmt"
	"net/textproto"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// checkSources are what a check can test; a check has exactly one.
var checkSources = []string{"status", "body_contains", "body_matches", "json", "header", "size"}

// checkOps are the comparisons of json and header checks; they take one.
var checkOps = []string{"eq", "ne", "lt", "lte", "gt", "gte", "contains", "matches", "exists"}

// checkKeys are the keys a check may have.
var checkKeys = append(append([]string{"name"}, checkSources...), checkOps...)

// opSymbols name the comparisons in default check names.
var opSymbols = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}

// checkDialect is what differs between protocols' checks: how status: is
// read (HTTP codes, gRPC codes by name) and the example messages show.
type checkDialect struct {
	status  func(p *parser, n yamldoc.Node) (Check, bool)
	example string // one check, like {status: 200}
	binary  bool   // messages may be binary (WebSocket): size:, and body_contains: {hex: …} or {base64: …}
}

// sources are the check sources of the dialect: size: only where
// messages may be binary.
func (d checkDialect) sources() []string {
	if d.binary {
		return checkSources
	}
	return checkSources[:len(checkSources)-1]
}

// httpChecks are HTTP's checks, which SSE and WebSocket steps share.
var httpChecks = checkDialect{status: (*parser).statusCheck, example: "{status: 200}"}

// checks parses a step's check list (a single check may skip the list) and
// gives each check its id under endpoint (-1: the endpoint is broken).
// scope holds the variables a comparison may read; nil for steps whose
// checks are judged without them (SSE).
func (p *parser) checks(n yamldoc.Node, endpoint int32, scope *tmpl.Scope) []Check {
	return p.checksOf(n, endpoint, httpChecks, scope)
}

// checksOf is checks in a protocol's dialect.
func (p *parser) checksOf(n yamldoc.Node, endpoint int32, d checkDialect, scope *tmpl.Scope) []Check {
	items := []yamldoc.Node{n}
	if !yamldoc.IsMapping(n.V) {
		var ok bool
		if items, ok = p.List(n, "a list of checks like ["+d.example+"]"); !ok {
			return nil
		}
	}
	var out []Check
	for _, item := range items {
		c, ok := p.checkOf(item, d, scope)
		if !ok {
			if name := brokenCheckName(item.V); name != "" && endpoint >= 0 {
				p.layout.broken = append(p.layout.broken, name)
			}
			continue
		}
		c.ID = -1
		if endpoint >= 0 {
			c.ID = p.layout.check(endpoint, c.Name)
		}
		out = append(out, c)
	}
	return out
}

// brokenCheckName names a check that did not parse, for messages: its
// name when given, else its source and what it tests, as written.
func brokenCheckName(n ast.Node) string {
	var pairs []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		pairs = m.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{m}
	}
	name := ""
	for _, kv := range pairs {
		key, val := yamldoc.ScalarText(kv.Key), yamldoc.ScalarText(kv.Value)
		switch {
		case key == "name" && val != "":
			return val
		case name != "" || !slices.Contains(checkSources, key):
		case key == "json":
			name = val
		case key == "status":
			name = "status"
		default:
			name = strings.ReplaceAll(key, "_", " ") + " " + val
		}
	}
	return name
}

// checkOf parses one check in a protocol's dialect; scope is as for checks.
func (p *parser) checkOf(n yamldoc.Node, d checkDialect, scope *tmpl.Scope) (Check, bool) {
	o, ok := p.Object(n, "a check like "+d.example, checkKeys)
	if !ok {
		return Check{}, false
	}
	var sources, ops []yamldoc.Field
	for _, f := range o.Fields {
		switch {
		case slices.Contains(checkSources, f.Name):
			sources = append(sources, f)
		case slices.Contains(checkOps, f.Name):
			ops = append(ops, f)
		}
	}
	if len(sources) == 0 {
		p.Errs.Missing(n.Key, n.Path, n.Path, "a check needs one of %s", strings.Join(d.sources(), ", "))
		return Check{}, false
	}
	if len(sources) > 1 {
		p.Errs.Add(sources[1].Value.Key, sources[1].Value.Path, "a check tests one thing: %s and %s both given; split it into two checks", sources[0].Name, sources[1].Name)
		return Check{}, false
	}
	src := sources[0]
	var c Check
	var subject string
	if src.Name == "size" && !d.binary {
		p.Errs.Add(src.Value.Key, src.Value.Path, "size: checks a WebSocket message's length; here use body_matches or json")
		return Check{}, false
	}
	switch src.Name {
	case "json", "header":
		if len(ops) != 1 {
			p.opCountError(n, src.Name, ops)
			return Check{}, false
		}
	default:
		if len(ops) > 0 {
			p.Errs.Add(ops[0].Value.Key, ops[0].Value.Path, "%q does not apply to a %s check (it goes with json: or header:)", ops[0].Name, src.Name)
			return Check{}, false
		}
	}
	switch src.Name {
	case "status":
		c, ok = d.status(p, src.Value)
	case "body_contains":
		c, ok = p.bodyContains(src.Value, d)
	case "body_matches":
		c = Check{From: FromBody, Op: OpMatches}
		c.Regex, ok = p.Regex(src.Value)
		if ok {
			c.Values = []string{c.Regex.String()}
			c.Name = "body matches /" + c.Regex.String() + "/"
		}
	case "json":
		c.From = FromJSON
		subject, ok = p.NonEmpty(src.Value, "a JSON path like $.items[0].id")
		if ok {
			c.Path, ok = p.ParseJSONPath(src.Value, subject)
		}
	case "header":
		c.From = FromHeader
		c.Header, ok = p.headerName(src.Value)
		subject = "header " + c.Header
	case "size":
		c, ok = p.sizeCheck(src.Value)
	}
	if ok && (src.Name == "json" || src.Name == "header") {
		ok = p.checkOp(&c, ops[0], subject, operands{scope: scope, path: src.Name == "json"})
	}
	if name, has := o.Get("name"); has {
		s, nameOK := p.NonEmpty(name, "a check name")
		c.Name, ok = s, ok && nameOK
	}
	return c, ok
}

// opCountError reports a json or header check without exactly one comparison.
func (p *parser) opCountError(n yamldoc.Node, source string, ops []yamldoc.Field) {
	if len(ops) == 0 {
		p.Errs.Missing(n.Key, n.Path, n.Path, "a %s check needs one of %s", source, strings.Join(checkOps, ", "))
		return
	}
	p.Errs.Add(ops[1].Value.Key, ops[1].Value.Path, "a check makes one comparison: %s and %s both given; split it into two checks", ops[0].Name, ops[1].Name)
}

// checkOp parses a json or header check's comparison and names the check;
// ops says what it may compare with besides a value as written.
func (p *parser) checkOp(c *Check, op yamldoc.Field, subject string, ops operands) bool {
	v := op.Value
	switch op.Name {
	case "eq", "ne", "lt", "lte", "gt", "gte":
		ordering := op.Name != "eq" && op.Name != "ne"
		shown, handled, ok := p.dynamicOperand(c, v, ordering, ops)
		if !ok {
			return false
		}
		if !handled {
			if shown, ok = p.literalOperand(c, v, ordering); !ok {
				return false
			}
		}
		c.Op = map[string]Op{"eq": OpEq, "ne": OpNe, "lt": OpLt, "lte": OpLte, "gt": OpGt, "gte": OpGte}[op.Name]
		c.Name = subject + " " + opSymbols[op.Name] + " " + shown
	case "contains":
		s, ok := p.NonEmpty(v, "the text to look for")
		if !ok {
			return false
		}
		c.Op, c.Values = OpContains, []string{s}
		c.Name = fmt.Sprintf("%s contains %q", subject, s)
	case "matches":
		re, ok := p.Regex(v)
		if !ok {
			return false
		}
		c.Op, c.Regex, c.Values = OpMatches, re, []string{re.String()}
		c.Name = subject + " matches /" + re.String() + "/"
	case "exists":
		b, ok := p.Bool(v)
		if !ok {
			return false
		}
		c.Op, c.Values = OpExists, []string{strconv.FormatBool(b)}
		c.Name = subject + " exists"
		if !b {
			c.Name = subject + " does not exist"
		}
	}
	return true
}

// literalOperand parses a comparison's value as written: any scalar for
// eq and ne (a string shown quoted), a number for the orderings.
func (p *parser) literalOperand(c *Check, v yamldoc.Node, ordering bool) (string, bool) {
	if ordering {
		if _, ok := p.Float(v, "a number to compare with"); !ok {
			return "", false
		}
		c.Values = []string{yamldoc.ScalarText(v.V)}
		return c.Values[0], true
	}
	switch v.V.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		p.TypeError(v, "a string, number, boolean or null to compare with")
		return "", false
	}
	s := yamldoc.ScalarText(v.V)
	shown := s
	switch v.V.(type) {
	case *ast.StringNode, *ast.LiteralNode:
		shown = strconv.Quote(s)
	case *ast.NullNode:
		s, shown = "null", "null"
	}
	c.Values = []string{s}
	return shown, true
}

// statusCheck parses `status: 200` or `status: [200, 201]`.
func (p *parser) statusCheck(n yamldoc.Node) (Check, bool) {
	c := Check{From: FromStatus, Op: OpIn}
	codes, list, ok := p.StatusCodes(n)
	for _, code := range codes {
		c.Values = append(c.Values, strconv.Itoa(code))
	}
	switch {
	case len(c.Values) == 0:
		return c, false
	case list:
		c.Name = statusListName(c.Values)
	default:
		c.Name = "status is " + c.Values[0]
	}
	return c, ok
}

// statusListName is the default name of a check of a list of statuses,
// e.g. "status in [201, 409]", written as the test writes the list.
func statusListName(codes []string) string {
	return "status in [" + strings.Join(codes, ", ") + "]"
}

// legacyCheckName maps the name earlier versions gave a status list's
// check ("status in [201 409]", Go's %v of a slice) to today's, so that a
// threshold written against it still finds its check; any other name is
// returned as it is.
func legacyCheckName(name string) string {
	inner, ok := strings.CutPrefix(name, "status in [")
	if !ok || !strings.HasSuffix(inner, "]") || strings.Contains(inner, ",") {
		return name
	}
	return statusListName(strings.Fields(strings.TrimSuffix(inner, "]")))
}

// headerName returns a valid header name in canonical form.
func (p *parser) headerName(n yamldoc.Node) (string, bool) {
	s, ok := p.NonEmpty(n, "a header name like Content-Type")
	if !ok {
		return "", false
	}
	if !yamldoc.IsToken(s) {
		p.Errs.Add(n.Pos, n.Path, "bad header name %q", s)
		return "", false
	}
	return textproto.CanonicalMIMEHeaderKey(s), true
}
