package plan

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/loadlens/loadlens/internal/jsonpath"
)

// extractKeys are the keys of one extraction.
var extractKeys = []string{"json", "header", "regex", "default"}

// extracts parses a step's extract mapping (variable name → extraction).
// An extraction without a default gets the implicit check "extract <name>"
// under endpoint, which counts misses.
func (p *parser) extracts(n node, endpoint int32, sc *scenarioCtx) []Extract {
	o, ok := p.object(n, "a mapping of variable names to extractions like {json: $.token}", nil)
	if !ok {
		return nil
	}
	var out []Extract
	for _, f := range o.fields {
		if !p.checkVarName(f.val.key, f.val.path, "variable", f.name) {
			continue
		}
		e, ok := p.extract(f.val)
		if !ok {
			if endpoint >= 0 {
				p.layout.broken = append(p.layout.broken, "extract "+f.name)
			}
			continue
		}
		e.Name = f.name
		e.Var = sc.scope.Vars[f.name]
		e.Check = -1
		if e.Default == nil && endpoint >= 0 {
			e.Check = p.layout.check(endpoint, "extract "+f.name)
		}
		out = append(out, e)
	}
	return out
}

// extract parses {json: PATH}, {header: NAME[, regex: RE]} or {regex: RE},
// each with an optional default.
func (p *parser) extract(n node) (Extract, bool) {
	var e Extract
	o, ok := p.object(n, "an extraction like {json: $.token}, {header: Location} or {regex: 'id=(\\d+)'}", extractKeys)
	if !ok {
		return e, false
	}
	jsonNode, hasJSON := o.get("json")
	headerNode, hasHeader := o.get("header")
	regexNode, hasRegex := o.get("regex")
	switch {
	case hasJSON && (hasHeader || hasRegex):
		other := "header"
		if hasRegex {
			other = "regex"
		}
		p.errs.add(o.keyPos(other), joinPath(o.path, other), "json extracts by path; it does not combine with %s", other)
		return e, false
	case hasJSON:
		e.From = FromJSON
		var src string
		if src, ok = p.nonEmpty(jsonNode, "a JSON path like $.token"); ok {
			e.Path, ok = p.jsonPath(jsonNode, src)
		}
	case hasHeader:
		e.From = FromHeader
		e.Header, ok = p.headerName(headerNode)
	case hasRegex:
		e.From = FromRegex
	default:
		p.errs.add(n.key, n.path, "an extraction needs json, header or regex")
		return e, false
	}
	if hasRegex {
		re, reOK := p.regex(regexNode)
		e.Regex, ok = re, ok && reOK
	}
	if d, has := o.get("default"); has {
		s, defOK := p.text(d, "a default value")
		e.Default, ok = &s, ok && defOK
	}
	return e, ok
}

// regex compiles n's text, reporting an error at the offending part.
func (p *parser) regex(n node) (*regexp.Regexp, bool) {
	s, ok := p.nonEmpty(n, "a regular expression")
	if !ok {
		return nil, false
	}
	re, err := regexp.Compile(s)
	if err != nil {
		at, msg := n.pos, err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = se.Code.String()
			if se.Expr != "" {
				msg += ": `" + se.Expr + "`"
				if i := strings.Index(s, se.Expr); i >= 0 {
					at = p.src.posAt(n.v, i)
				}
			}
		}
		p.errs.add(at, n.path, "bad regex: %s", msg)
		return nil, false
	}
	return re, true
}

// jsonPath parses src, n's text, as a JSON path.
func (p *parser) jsonPath(n node, src string) (jsonpath.Path, bool) {
	path, err := jsonpath.Parse(src)
	if err != nil {
		var je *jsonpath.Error
		if errors.As(err, &je) {
			p.errs.add(p.src.posAt(n.v, je.Offset), n.path, "bad JSON path: %s", je.Msg)
		} else {
			p.errs.add(n.pos, n.path, "bad JSON path: %v", err)
		}
		return path, false
	}
	return path, true
}
