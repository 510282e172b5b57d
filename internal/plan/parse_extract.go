package plan

import "github.com/loadlens/loadlens/internal/yamldoc"

// extractKeys are the keys of one extraction.
var extractKeys = []string{"json", "header", "regex", "default"}

// extracts parses a step's extract mapping (variable name → extraction).
// An extraction without a default gets the implicit check "extract <name>"
// under endpoint, which counts misses.
func (p *parser) extracts(n yamldoc.Node, endpoint int32, sc *scenarioCtx) []Extract {
	o, ok := p.Object(n, "a mapping of variable names to extractions like {json: $.token}", nil)
	if !ok {
		return nil
	}
	var out []Extract
	for _, f := range o.Fields {
		if !p.checkVarName(f.Value.Key, f.Value.Path, "variable", f.Name) {
			continue
		}
		e, ok := p.extract(f.Value)
		if !ok {
			if endpoint >= 0 {
				p.layout.broken = append(p.layout.broken, "extract "+f.Name)
			}
			continue
		}
		e.Name = f.Name
		e.Var = sc.scope.Vars[f.Name]
		e.Check = -1
		if e.Default == nil && endpoint >= 0 {
			e.Check = p.layout.check(endpoint, "extract "+f.Name)
		}
		out = append(out, e)
	}
	return out
}

// extract parses {json: PATH}, {header: NAME[, regex: RE]} or {regex: RE},
// each with an optional default.
func (p *parser) extract(n yamldoc.Node) (Extract, bool) {
	var e Extract
	o, ok := p.Object(n, "an extraction like {json: $.token}, {header: Location} or {regex: 'id=(\\d+)'}", extractKeys)
	if !ok {
		return e, false
	}
	jsonNode, hasJSON := o.Get("json")
	headerNode, hasHeader := o.Get("header")
	regexNode, hasRegex := o.Get("regex")
	switch {
	case hasJSON && (hasHeader || hasRegex):
		other := "header"
		if hasRegex {
			other = "regex"
		}
		p.Errs.Add(o.KeyPos(other), yamldoc.JoinPath(o.Path, other), "json extracts by path; it does not combine with %s", other)
		return e, false
	case hasJSON:
		e.From = FromJSON
		var src string
		if src, ok = p.NonEmpty(jsonNode, "a JSON path like $.token"); ok {
			e.Path, ok = p.ParseJSONPath(jsonNode, src)
		}
	case hasHeader:
		e.From = FromHeader
		e.Header, ok = p.headerName(headerNode)
	case hasRegex:
		e.From = FromRegex
	default:
		p.Errs.Missing(n.Key, n.Path, n.Path, "an extraction needs json, header or regex")
		return e, false
	}
	if hasRegex {
		re, reOK := p.Regex(regexNode)
		e.Regex, ok = re, ok && reOK
	}
	if d, has := o.Get("default"); has {
		s, defOK := p.Text(d, "a default value")
		e.Default, ok = &s, ok && defOK
	}
	return e, ok
}
