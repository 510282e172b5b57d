package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Lookup returns the value at p in doc, and false when a step finds no
// member or element, or meets a value of the wrong type (an index into an
// object, a name into an array or scalar). The root path returns doc itself.
func (p Path) Lookup(doc any) (any, bool) {
	v := doc
	for _, st := range p.steps {
		if st.isIndex {
			arr, ok := v.([]any)
			if !ok {
				return nil, false
			}
			i := st.index
			if i < 0 {
				i += len(arr)
			}
			if i < 0 || i >= len(arr) {
				return nil, false
			}
			v = arr[i]
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[st.name]; !ok {
			return nil, false
		}
	}
	return v, true
}

// Format renders a looked-up value as text for variables and checks: a
// string as is, a json.Number as its text, a bool as true or false, nil as
// null, and objects and arrays as compact JSON (object keys sorted, no HTML
// escaping).
func Format(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
