package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/loadlens/loadlens/internal/importer"
)

// maxDepth bounds how deep a made-up value nests, for recursive schemas.
const maxDepth = 5

// sample makes up a value that fits a schema: its example, default or first
// enum value when it has one, else a plain value of its type.
func sample(ref *openapi3.SchemaRef, depth int) any {
	if ref == nil || ref.Value == nil || depth > maxDepth {
		return nil
	}
	s := ref.Value
	switch {
	case s.Example != nil:
		return s.Example
	case s.Const != nil:
		return s.Const
	case len(s.Examples) > 0: // OpenAPI 3.1, from JSON Schema
		return s.Examples[0]
	case s.Default != nil:
		return s.Default
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.AllOf) > 0 || len(s.Properties) > 0:
		return object(s, depth)
	case len(s.OneOf) > 0:
		return sample(s.OneOf[0], depth+1)
	case len(s.AnyOf) > 0:
		return sample(s.AnyOf[0], depth+1)
	}
	t := s.Type
	switch {
	case t != nil && t.Is("null"):
		return nil
	case t.Includes("object"):
		return object(s, depth)
	case t.Includes("array"):
		if depth >= maxDepth {
			return []any{}
		}
		return []any{sample(s.Items, depth+1)}
	case t.Includes("integer"):
		if s.Min != nil {
			return *s.Min
		}
		return float64(1)
	case t.Includes("number"):
		if s.Min != nil {
			return *s.Min
		}
		return 1.5
	case t.Includes("boolean"):
		return true
	case t.Includes("string"):
		switch s.Format {
		case "date-time":
			return "2024-01-01T00:00:00Z"
		case "date":
			return "2024-01-01"
		case "uuid":
			return "00000000-0000-4000-8000-000000000000"
		case "email":
			return "user@example.com"
		case "uri", "url":
			return "https://example.com/"
		case "byte", "binary":
			return ""
		}
		return "string"
	}
	return nil
}

// object makes up an object from a schema's properties and those of its
// allOf parts, leaving out what the server sets (readOnly).
func object(s *openapi3.Schema, depth int) importer.Object {
	obj := importer.Object{}
	has := map[string]bool{}
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		if p != nil && p.Value != nil && p.Value.ReadOnly {
			continue // the server sets it
		}
		has[name] = true
		obj = append(obj, importer.Member{Key: name, Value: sample(p, depth+1)})
	}
	for _, part := range s.AllOf {
		if more, ok := sample(part, depth+1).(importer.Object); ok {
			for _, m := range more {
				if !has[m.Key] {
					has[m.Key] = true
					obj = append(obj, m)
				}
			}
		}
	}
	return obj
}
