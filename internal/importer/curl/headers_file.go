package curl

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
)

// addHeader records one -H value: "Name: value", "Name;" (sent empty) or
// "Name:" (a header curl would send, removed).
func (r *request) addHeader(value string, skipped func(string)) {
	k, v, ok := strings.Cut(value, ":")
	switch {
	case !ok && strings.HasSuffix(value, ";"):
		r.headers = append(r.headers, importer.Header{Name: strings.TrimSuffix(value, ";")})
	case !ok:
		skipped(fmt.Sprintf("header %q has no colon", value))
	case strings.TrimSpace(v) == "":
		r.removed = append(r.removed, strings.TrimSpace(k))
	default:
		r.headers = append(r.headers, importer.Header{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
	}
}

// addHeaderFile records -H @file as curl does: each non-empty line of the
// file is one -H value.
func (r *request) addHeaderFile(path string, skipped func(string)) {
	text, ok := r.readText(path, "headers, -H @"+path, func(why string) { skipped(fmt.Sprintf("-H @%s: %s", path, why)) })
	if !ok {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) != "" {
			r.addHeader(line, skipped)
		}
	}
}
