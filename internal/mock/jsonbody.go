package mock

import (
	"mime"
	"strings"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// isJSON reports whether a body: answers JSON, so the request's values it
// inserts are escaped for JSON: its Content-Type says so (application/json
// or a +json type) or, templated or absent, the text starts with { or [
// (not with a template's {{: an echo of the request's body is what it is).
func isJSON(headers []header, body *tmpl.Template) bool {
	for _, h := range headers {
		if h.name != "Content-Type" || h.fixed == nil || h.added {
			continue
		}
		t, _, err := mime.ParseMediaType(h.fixed[0])
		return err == nil && (t == "application/json" || strings.HasSuffix(t, "+json"))
	}
	src := strings.TrimSpace(body.String())
	return (strings.HasPrefix(src, "{") && !strings.HasPrefix(src, "{{")) || strings.HasPrefix(src, "[")
}
