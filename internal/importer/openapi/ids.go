package openapi

import (
	"encoding/json"
	"strings"
)

// localizeIDs rewrites $ref values that name a component schema by its $id
// (as OpenAPI 3.1 allows, through JSON Schema 2020-12) into local
// references (#/components/schemas/Name), which the loader resolves
// without reading anything outside the spec. An anchor after the $id
// (#pet_details_id) refers to the schema itself.
func localizeIDs(js []byte) ([]byte, bool) {
	var doc map[string]any
	if json.Unmarshal(js, &doc) != nil {
		return nil, false
	}
	comps, _ := doc["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	ids := map[string]string{}
	for name, v := range schemas {
		if m, ok := v.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok {
				ids[id] = "#/components/schemas/" + name
				delete(m, "$id")
			}
		}
	}
	if len(ids) == 0 {
		return nil, false
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				id, _, _ := strings.Cut(ref, "#")
				if local, ok := ids[id]; ok {
					x["$ref"] = local
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	out, err := json.Marshal(doc)
	return out, err == nil
}
