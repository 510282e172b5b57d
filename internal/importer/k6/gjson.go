package k6

import (
	"strings"
)

// gjsonPath turns the selector of k6's res.json(selector), GJSON syntax,
// into a JSON path: "items.0.id" is $.items[0].id (a number is an index
// there, where $.items.0 would be a key "0" and find nothing). GJSON's
// queries, wildcards, modifiers and escapes (# * ? | @ \) have no JSON
// path here: false, and the caller names what it did not convert.
func gjsonPath(sel string) (string, bool) {
	if strings.ContainsAny(sel, "#*?|@\\") {
		return "", false
	}
	path := "$"
	for _, part := range strings.Split(sel, ".") {
		switch {
		case part == "":
		case strings.Trim(part, "0123456789") == "":
			path += "[" + part + "]"
		default:
			path += "." + part
		}
	}
	return path, true
}
