package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// maxRefChain bounds the $refs one reference passes through ($ref to an
// object that is itself a $ref...) before it reaches a value.
const maxRefChain = 32

// refs resolves a spec's local $refs (#/components/schemas/Pet, or any
// JSON pointer into the spec); a spec must not make the import read files
// or fetch URLs. Each reference is read into its type once and shared.
type refs struct {
	tree  any    // the spec as generic JSON values
	data  []byte // the spec's text, to name the line a $ref is written on
	cache map[string]any
}

// refError is a $ref that does not resolve, or is external, or loops: a
// spec with a typo, not "not an OpenAPI document".
type refError struct {
	ref, field, why string
	line            int
}

func (e *refError) Error() string {
	at := ""
	if e.line > 0 {
		at = fmt.Sprintf("line %d: ", e.line)
	}
	field := ""
	if e.field != "" {
		field = " (at " + e.field + ")"
	}
	return fmt.Sprintf("%s$ref %q %s%s", at, e.ref, e.why, field)
}

// external reports whether the $ref names another file or a URL.
func (e *refError) external() bool { return !strings.HasPrefix(e.ref, "#") }

// newRefs checks every $ref of the spec (js, read from data): local, one
// that resolves, and not a loop of $refs.
func newRefs(js, data []byte) (*refs, error) {
	r := &refs{data: data, cache: map[string]any{}}
	if err := json.Unmarshal(js, &r.tree); err != nil {
		return nil, err
	}
	var err error
	walkRefs(r.tree, "", "", func(ref, field string) bool {
		if _, e := r.follow(ref); e != nil {
			e.field = strings.TrimPrefix(field, ".")
			err = e
			return false
		}
		return true
	})
	return r, err
}

// valueKeys hold values (examples, defaults), not parts of the spec: a
// "$ref" in them is data. Under properties, a key is a property's name.
var valueKeys = map[string]bool{"example": true, "default": true, "enum": true, "const": true, "value": true}

// walkRefs calls found with every $ref written in v and the field it is
// written at, until found returns false.
func walkRefs(v any, key, field string, found func(ref, field string) bool) bool {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && !found(ref, field) {
			return false
		}
		for _, k := range walkOrder(x, field == "") {
			e := x[k]
			if key != "properties" && (valueKeys[k] || strings.HasPrefix(k, "x-")) {
				continue
			}
			if _, list := e.([]any); list && k == "examples" && key != "properties" {
				continue // OpenAPI 3.1's list of example values
			}
			if !walkRefs(e, k, field+"."+k, found) {
				return false
			}
		}
	case []any:
		for i, e := range x {
			if !walkRefs(e, key, field+"["+strconv.Itoa(i)+"]", found) {
				return false
			}
		}
	}
	return true
}

// walkOrder is the keys of x sorted, the spec's paths first at its top:
// the first bad $ref is then the same on every run (a map's order is not),
// and found where an operation uses it rather than where it is defined.
func walkOrder(x map[string]any, top bool) []string {
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if top && (keys[i] == "paths") != (keys[j] == "paths") {
			return keys[i] == "paths"
		}
		return keys[i] < keys[j]
	})
	return keys
}

// follow finds the value ref points at, through $refs to $refs.
func (r *refs) follow(ref string) (any, *refError) {
	seen := []string{ref}
	for {
		v, err := r.target(ref)
		if err != nil {
			return nil, err
		}
		m, _ := v.(map[string]any)
		next, ok := m["$ref"].(string)
		if !ok {
			return v, nil
		}
		for _, s := range seen {
			if s == next {
				return nil, r.errorf(seen[0], "refers back to itself through $refs (%s → %s)", strings.Join(seen, " → "), next)
			}
		}
		if seen = append(seen, next); len(seen) > maxRefChain {
			return nil, r.errorf(seen[0], "passes through more than %d $refs in a row", maxRefChain)
		}
		ref = next
	}
}

// target is the value a local $ref points at, one step.
func (r *refs) target(ref string) (any, *refError) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, r.errorf(ref, "is an external reference (another file or a URL): an import reads the spec alone")
	}
	if un, err := url.PathUnescape(frag); err == nil {
		frag = un
	}
	if frag == "" {
		return r.tree, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, r.errorf(ref, "does not resolve (a local $ref is #/ and a path: #/components/schemas/Name)")
	}
	v := r.tree
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v, ok = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			ok = err == nil && i >= 0 && i < len(x)
			if ok {
				v = x[i]
			}
		default:
			ok = false
		}
		if !ok {
			return nil, r.errorf(ref, "does not resolve (no such component in the spec)")
		}
	}
	return v, nil
}

// errorf is an error about ref, at the line it is written on when the
// spec writes it once.
func (r *refs) errorf(ref, format string, args ...any) *refError {
	e := &refError{ref: ref, why: fmt.Sprintf(format, args...)}
	if at := bytes.Index(r.data, []byte(ref)); at >= 0 && bytes.Count(r.data, []byte(ref)) == 1 {
		e.line = bytes.Count(r.data[:at], []byte("\n")) + 1
	}
	return e
}

// resolve reads what ref points at into a new T, once per reference: the
// same reference is the same value everywhere (a schema's value is made
// up once).
func resolve[T any](r *refs, ref string) (*T, error) {
	if v, ok := r.cache[ref]; ok {
		if t, ok := v.(*T); ok {
			return t, nil
		}
	}
	v, rerr := r.follow(ref)
	if rerr != nil {
		return nil, rerr
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	t := new(T)
	if err := json.Unmarshal(b, t); err != nil {
		return nil, fmt.Errorf("$ref %q: %w", ref, err)
	}
	r.cache[ref] = t
	return t, nil
}

// schema is s, or what its $ref points at.
func (r *refs) schema(s *schema) (*schema, error) {
	if s == nil || s.Ref == "" {
		return s, nil
	}
	return resolve[schema](r, s.Ref)
}

// parameter is p, or what its $ref points at.
func (r *refs) parameter(p *parameter) (*parameter, error) {
	if p == nil || p.Ref == "" {
		return p, nil
	}
	return resolve[parameter](r, p.Ref)
}

// requestBody is b, or what its $ref points at.
func (r *refs) requestBody(b *requestBody) (*requestBody, error) {
	if b == nil || b.Ref == "" {
		return b, nil
	}
	return resolve[requestBody](r, b.Ref)
}

// example is e, or what its $ref points at.
func (r *refs) example(e *example) (*example, error) {
	if e == nil || e.Ref == "" {
		return e, nil
	}
	return resolve[example](r, e.Ref)
}

// pathItem is p, or what its $ref points at.
func (r *refs) pathItem(p *pathItem) (*pathItem, error) {
	if p == nil || p.Ref == "" {
		return p, nil
	}
	return resolve[pathItem](r, p.Ref)
}

// securityScheme is s, or what its $ref points at.
func (r *refs) securityScheme(s *securityScheme) (*securityScheme, error) {
	if s == nil || s.Ref == "" {
		return s, nil
	}
	return resolve[securityScheme](r, s.Ref)
}
