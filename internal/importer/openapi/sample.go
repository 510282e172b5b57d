package openapi

import (
	"fmt"

	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// maxDepth bounds how deep a made-up value nests, for recursive schemas.
const maxDepth = 5

// sampler makes up values that fit schemas. Each schema's value (at each
// depth) is made once and shared by every use, and what the values would
// take in the test is counted as they are made: schemas that refer to each
// other in a tree (30 properties a level, 5 levels: 24 million values)
// stop the import at the test file's limit, naming the schema, instead of
// filling memory before the limit is checked.
type sampler struct {
	refs *refs
	made map[madeKey]made
	left int64 // bytes the test's made-up values and examples may still take
}

type madeKey struct {
	s     *schema
	depth int
	lit   bool // strings are literal template text (for a json: body)
}

// made is a value made up from a schema, and the bytes it takes as JSON.
type made struct {
	v       any
	size    int64
	members []int64 // an object's: each member's size, so allOf need not walk them again
}

func newSampler(r *refs) *sampler {
	return &sampler{refs: r, made: map[madeKey]made{}, left: plan.MaxFileSize}
}

// tooLarge is the error of a made-up value that would not fit in a test.
type tooLarge struct{ schema string }

func (e *tooLarge) Error() string {
	return fmt.Sprintf("a value made up from the schema %s would take more than %s, the most a test file holds: "+
		"its properties refer to schemas whose properties refer to others in turn; give it an example in the spec",
		e.schema, units.Size(plan.MaxFileSize))
}

// use charges the bytes a value takes in the test: many uses of values
// that each fit may still pass the limit together.
func (sp *sampler) use(size int64) error {
	if size > sp.left {
		return fmt.Errorf("the values made up for the test, this one included, would take more than %s, the most a test file holds; "+
			"give the spec's largest schemas examples", units.Size(plan.MaxFileSize))
	}
	sp.left -= size
	return nil
}

// value makes up a value for ref at depth, once per schema: its example,
// default or first enum value when it has one, else a plain value of its
// type. lit makes its strings literal template text. Past maxDepth only
// what needs no deeper schema is made: a scalar still gets a value that
// fits it (null did not fit a required integer).
func (sp *sampler) value(ref *schema, depth int, lit bool) (made, error) {
	s, err := sp.refs.schema(ref)
	if err != nil {
		return made{}, err
	}
	if s == nil || (depth > maxDepth && !shallow(s)) {
		return made{v: nil, size: 4}, nil
	}
	k := madeKey{s, depth, lit}
	if m, ok := sp.made[k]; ok {
		return m, nil
	}
	m, err := sp.make(s, depth, lit)
	if err == nil && m.size > plan.MaxFileSize {
		err = &tooLarge{}
	}
	if tl, ok := err.(*tooLarge); ok && (tl.schema == "" || tl.schema == inline) {
		tl.schema = name(ref) // the innermost schema with a name that passed the limit
	}
	if err != nil {
		return made{}, err
	}
	sp.made[k] = m
	return m, nil
}

// shallow reports whether a value for s needs no deeper schema: the spec
// gives one, or s is a scalar.
func shallow(s *schema) bool {
	switch {
	case s.Example != nil || s.Const != nil || s.firstExample() != nil || s.Default != nil || len(s.Enum) > 0:
		return true
	case len(s.AllOf) > 0 || len(s.Properties) > 0 || len(s.OneOf) > 0 || len(s.AnyOf) > 0:
		return false
	}
	return !s.Type.includes("object") && !s.Type.includes("array") && len(s.Type) > 0
}

// inline names a schema written in place, without a name.
const inline = "(an inline schema)"

// name names a schema in errors: its component name, else its $ref.
func name(ref *schema) string {
	for _, prefix := range []string{"#/components/schemas/", "#/definitions/"} {
		if n, ok := strings.CutPrefix(ref.Ref, prefix); ok && !strings.Contains(n, "/") {
			return n
		}
	}
	if ref.Ref != "" {
		return ref.Ref
	}
	return inline
}

// fixed is a value the spec gives (an example, a default), literal when lit.
func fixed(v any, lit bool) (made, error) {
	if lit {
		v = templated(v)
	}
	return made{v: v, size: jsonSize(v, plan.MaxFileSize)}, nil
}

func (sp *sampler) make(s *schema, depth int, lit bool) (made, error) {
	switch {
	case s.Example != nil:
		return fixed(s.Example, lit)
	case s.Const != nil:
		return fixed(s.Const, lit)
	case s.firstExample() != nil: // OpenAPI 3.1, from JSON Schema
		return fixed(s.firstExample(), lit)
	case s.Default != nil:
		return fixed(s.Default, lit)
	case len(s.Enum) > 0:
		return fixed(s.Enum[0], lit)
	case len(s.AllOf) > 0 || len(s.Properties) > 0:
		return sp.object(s, depth, lit)
	case len(s.OneOf) > 0:
		return sp.value(s.OneOf[0], depth+1, lit)
	case len(s.AnyOf) > 0:
		return sp.value(s.AnyOf[0], depth+1, lit)
	}
	t := s.Type
	switch {
	case t.is("null"):
		return made{v: nil, size: 4}, nil
	case t.includes("object"):
		return sp.object(s, depth, lit)
	case t.includes("array"):
		if depth >= maxDepth {
			return made{v: []any{}, size: 2}, nil
		}
		item, err := sp.value(s.Items, depth+1, lit)
		return made{v: []any{item.v}, size: item.size + 2}, err
	}
	v := scalarSample(s)
	return made{v: v, size: jsonSize(v, plan.MaxFileSize)}, nil
}

// object makes up an object from a schema's properties and those of its
// allOf parts, leaving out what the server sets (readOnly). It stops as
// soon as the object passes the test file's limit.
func (sp *sampler) object(s *schema, depth int, lit bool) (made, error) {
	obj := importer.Object{}
	size := int64(2)
	var sizes []int64
	has := map[string]bool{}
	add := func(key string, v made) error {
		obj = append(obj, importer.Member{Key: key, Value: v.v})
		sizes = append(sizes, v.size)
		size += int64(len(key)) + 6 + v.size // "key": value,
		if size > plan.MaxFileSize {
			return &tooLarge{}
		}
		return nil
	}
	for _, name := range sortedKeys(s.Properties) {
		p, err := sp.refs.schema(s.Properties[name])
		if err != nil {
			return made{}, err
		}
		if p != nil && p.ReadOnly {
			continue // the server sets it
		}
		if depth+1 > maxDepth && !slices.Contains(s.Required, name) && (p == nil || !shallow(p)) {
			continue // left out, not null: an optional property may be missing, not any value
		}
		v, err := sp.value(s.Properties[name], depth+1, lit)
		if err == nil {
			has[name] = true
			err = add(name, v)
		}
		if err != nil {
			return made{}, err
		}
	}
	for _, part := range s.AllOf {
		more, err := sp.value(part, depth+1, lit)
		if err != nil {
			return made{}, err
		}
		o, _ := more.v.(importer.Object)
		for i, m := range o {
			if has[m.Key] {
				continue
			}
			has[m.Key] = true
			var ms int64
			if i < len(more.members) {
				ms = more.members[i]
			} else {
				ms = jsonSize(m.Value, plan.MaxFileSize) // an example of the spec's: a tree, not shared
			}
			if err := add(m.Key, made{v: m.Value, size: ms}); err != nil {
				return made{}, err
			}
		}
	}
	return made{obj, size, sizes}, nil
}

// jsonSize is about the bytes v takes written as JSON, counted up to just
// past limit (a value shared by many members is counted for each).
func jsonSize(v any, limit int64) int64 {
	var n int64
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch x := v.(type) {
		case string:
			n += int64(len(x)) + 2
		case importer.Object:
			n += 2
			for _, m := range x {
				n += int64(len(m.Key)) + 6
				walk(m.Value)
			}
		case map[string]any:
			n += 2
			for k, e := range x {
				n += int64(len(k)) + 6
				walk(e)
			}
		case []any:
			n += 2
			for _, e := range x {
				n += 2
				walk(e)
			}
		default:
			n += 8
		}
	}
	walk(v)
	return n
}

// templated is a copy of v whose strings are literal template text; the
// spec's own values are shared by every use, so they are not changed.
func templated(v any) any {
	switch x := v.(type) {
	case string:
		return importer.Lit(x)
	case map[string]any:
		out := make(importer.Object, 0, len(x))
		for _, k := range sortedKeys(x) {
			out = append(out, importer.Member{Key: k, Value: templated(x[k])})
		}
		return out
	case importer.Object:
		out := make(importer.Object, len(x))
		for i, m := range x {
			out[i] = importer.Member{Key: m.Key, Value: templated(m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = templated(x[i])
		}
		return out
	}
	return v
}
