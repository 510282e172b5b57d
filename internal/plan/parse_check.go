package plan

import (
	"fmt"
	"net/textproto"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
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
	status  func(p *parser, n node) (Check, bool)
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
func (p *parser) checks(n node, endpoint int32) []Check {
	return p.checksOf(n, endpoint, httpChecks)
}

// checksOf is checks in a protocol's dialect.
func (p *parser) checksOf(n node, endpoint int32, d checkDialect) []Check {
	items := []node{n}
	if !isMapping(n.v) {
		var ok bool
		if items, ok = p.list(n, "a list of checks like ["+d.example+"]"); !ok {
			return nil
		}
	}
	var out []Check
	for _, item := range items {
		c, ok := p.checkOf(item, d)
		if !ok {
			if name := brokenCheckName(item.v); name != "" && endpoint >= 0 {
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
		key, val := scalarText(kv.Key), scalarText(kv.Value)
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

// checkOf parses one check in a protocol's dialect.
func (p *parser) checkOf(n node, d checkDialect) (Check, bool) {
	o, ok := p.object(n, "a check like "+d.example, checkKeys)
	if !ok {
		return Check{}, false
	}
	var sources, ops []field
	for _, f := range o.fields {
		switch {
		case slices.Contains(checkSources, f.name):
			sources = append(sources, f)
		case slices.Contains(checkOps, f.name):
			ops = append(ops, f)
		}
	}
	if len(sources) == 0 {
		p.errs.add(n.key, n.path, "a check needs one of %s", strings.Join(d.sources(), ", "))
		return Check{}, false
	}
	if len(sources) > 1 {
		p.errs.add(sources[1].val.key, sources[1].val.path, "a check tests one thing: %s and %s both given; split it into two checks", sources[0].name, sources[1].name)
		return Check{}, false
	}
	src := sources[0]
	var c Check
	var subject string
	if src.name == "size" && !d.binary {
		p.errs.add(src.val.key, src.val.path, "size: checks a WebSocket message's length; here use body_matches or json")
		return Check{}, false
	}
	switch src.name {
	case "json", "header":
		if len(ops) != 1 {
			p.opCountError(n, src.name, ops)
			return Check{}, false
		}
	default:
		if len(ops) > 0 {
			p.errs.add(ops[0].val.key, ops[0].val.path, "%q does not apply to a %s check (it goes with json: or header:)", ops[0].name, src.name)
			return Check{}, false
		}
	}
	switch src.name {
	case "status":
		c, ok = d.status(p, src.val)
	case "body_contains":
		c, ok = p.bodyContains(src.val, d)
	case "body_matches":
		c = Check{From: FromBody, Op: OpMatches}
		c.Regex, ok = p.regex(src.val)
		if ok {
			c.Values = []string{c.Regex.String()}
			c.Name = "body matches /" + c.Regex.String() + "/"
		}
	case "json":
		c.From = FromJSON
		subject, ok = p.nonEmpty(src.val, "a JSON path like $.items[0].id")
		if ok {
			c.Path, ok = p.jsonPath(src.val, subject)
		}
	case "header":
		c.From = FromHeader
		c.Header, ok = p.headerName(src.val)
		subject = "header " + c.Header
	case "size":
		c, ok = p.sizeCheck(src.val)
	}
	if ok && (src.name == "json" || src.name == "header") {
		ok = p.checkOp(&c, ops[0], subject)
	}
	if name, has := o.get("name"); has {
		s, nameOK := p.nonEmpty(name, "a check name")
		c.Name, ok = s, ok && nameOK
	}
	return c, ok
}

// opCountError reports a json or header check without exactly one comparison.
func (p *parser) opCountError(n node, source string, ops []field) {
	if len(ops) == 0 {
		p.errs.add(n.key, n.path, "a %s check needs one of %s", source, strings.Join(checkOps, ", "))
		return
	}
	p.errs.add(ops[1].val.key, ops[1].val.path, "a check makes one comparison: %s and %s both given; split it into two checks", ops[0].name, ops[1].name)
}

// checkOp parses a json or header check's comparison and names the check.
func (p *parser) checkOp(c *Check, op field, subject string) bool {
	v := op.val
	switch op.name {
	case "eq", "ne":
		switch v.v.(type) {
		case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
			p.typeError(v, "a string, number, boolean or null to compare with")
			return false
		}
		c.Op = OpEq
		if op.name == "ne" {
			c.Op = OpNe
		}
		s := scalarText(v.v)
		shown := s
		switch v.v.(type) {
		case *ast.StringNode, *ast.LiteralNode:
			shown = strconv.Quote(s)
		case *ast.NullNode:
			s, shown = "null", "null"
		}
		c.Values = []string{s}
		c.Name = subject + " " + opSymbols[op.name] + " " + shown
	case "lt", "lte", "gt", "gte":
		if _, ok := p.float(v, "a number to compare with"); !ok {
			return false
		}
		c.Op = map[string]Op{"lt": OpLt, "lte": OpLte, "gt": OpGt, "gte": OpGte}[op.name]
		c.Values = []string{scalarText(v.v)}
		c.Name = subject + " " + opSymbols[op.name] + " " + scalarText(v.v)
	case "contains":
		s, ok := p.nonEmpty(v, "the text to look for")
		if !ok {
			return false
		}
		c.Op, c.Values = OpContains, []string{s}
		c.Name = fmt.Sprintf("%s contains %q", subject, s)
	case "matches":
		re, ok := p.regex(v)
		if !ok {
			return false
		}
		c.Op, c.Regex, c.Values = OpMatches, re, []string{re.String()}
		c.Name = subject + " matches /" + re.String() + "/"
	case "exists":
		b, ok := p.boolean(v)
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

// statusCheck parses `status: 200` or `status: [200, 201]`.
func (p *parser) statusCheck(n node) (Check, bool) {
	c := Check{From: FromStatus, Op: OpIn}
	codes, list, ok := p.statusCodes(n)
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

// statusCodes parses one HTTP status code or a list of them; list says
// which was written.
func (p *parser) statusCodes(n node) (codes []int, list, ok bool) {
	items := []node{n}
	if _, isList := n.v.(*ast.SequenceNode); isList {
		list = true
		items, _ = p.list(n, "")
		if len(items) == 0 {
			p.errs.add(n.pos, n.path, "needs at least one status code")
			return nil, list, false
		}
	}
	ok = true
	for _, item := range items {
		code, valid := p.integer(item, 0)
		if valid && (code < 100 || code > 599) {
			p.errs.add(item.pos, item.path, "%d is not an HTTP status code (100 to 599)", code)
			valid = false
		}
		ok = ok && valid
		codes = append(codes, int(code))
	}
	return codes, list, ok
}

// headerName returns a valid header name in canonical form.
func (p *parser) headerName(n node) (string, bool) {
	s, ok := p.nonEmpty(n, "a header name like Content-Type")
	if !ok {
		return "", false
	}
	if !isToken(s) {
		p.errs.add(n.pos, n.path, "bad header name %q", s)
		return "", false
	}
	return textproto.CanonicalMIMEHeaderKey(s), true
}
