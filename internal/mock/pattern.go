package mock

import (
	"fmt"
	"strings"
)

// pattern is a route's path: literal segments, {name} for one segment and a
// final {name...} for the rest, as in Go's net/http ServeMux.
type pattern struct {
	segs   []segment
	params []string // parameter names in order
}

type segment struct {
	lit   string // a literal segment
	param bool   // {name}: one segment
	rest  bool   // {name...}: this and every later segment, possibly none
}

// parsePattern parses a path pattern; the error's offset is where in path the
// problem is.
func parsePattern(path string) (pattern, int, error) {
	var p pattern
	if !strings.HasPrefix(path, "/") {
		return p, 0, fmt.Errorf("a path starts with /, like /users/{id}")
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		return p, i, fmt.Errorf("a path pattern has no query or fragment: match query parameters under match.query")
	}
	off := 1
	parts := strings.Split(path[1:], "/")
	for i, s := range parts {
		switch {
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
			name, rest := strings.CutSuffix(s[1:len(s)-1], "...")
			if !isIdent(name) {
				return p, off, fmt.Errorf("bad parameter %q: a name of letters, digits and _, like {id} or {key...}", s)
			}
			if rest && i != len(parts)-1 {
				return p, off, fmt.Errorf("{%s...} matches the rest of the path, so it must be the last segment", name)
			}
			for _, q := range p.params {
				if q == name {
					return p, off, fmt.Errorf("parameter {%s} is given twice", name)
				}
			}
			p.segs = append(p.segs, segment{param: !rest, rest: rest})
			p.params = append(p.params, name)
		case strings.ContainsAny(s, "{}"):
			return p, off + strings.IndexAny(s, "{}"), fmt.Errorf("a parameter is a whole segment, like /files/{name}; { and } may not appear elsewhere")
		default:
			p.segs = append(p.segs, segment{lit: s})
		}
		off += len(s) + 1
	}
	return p, 0, nil
}

// match reports whether path matches, writing parameter values into params
// (which has room for every parameter) without allocating.
func (p *pattern) match(path string, params []string) bool {
	if len(path) == 0 || path[0] != '/' {
		return false
	}
	rest := path[1:]
	k := 0
	for i, s := range p.segs {
		if s.rest {
			params[k] = rest
			return true
		}
		seg := rest
		j := strings.IndexByte(rest, '/')
		last := j < 0
		if !last {
			seg, rest = rest[:j], rest[j+1:]
		}
		switch {
		case s.param:
			if seg == "" {
				return false
			}
			params[k] = seg
			k++
		case seg != s.lit:
			return false
		}
		if last {
			return i == len(p.segs)-1
		}
	}
	return false
}

// isIdent reports whether s is a template variable name.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
