package curl

import (
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
)

// imply sets a header an option stands for (-u, -b, -A, -e): a later one
// replaces it, as curl's options do, except -b's cookies, which add up.
func (r *request) imply(name, value string) {
	for i, h := range r.implied {
		if h.Name != name {
			continue
		}
		if name == "Cookie" {
			value = h.Value + "; " + value
		}
		r.implied[i].Value = value
		return
	}
	r.implied = append(r.implied, importer.Header{Name: name, Value: value})
}

// sentHeaders is what curl sends: the -H headers, a name given twice as
// one header (a test names a header once; the values joined as RFC 9110
// allows, a Cookie's with "; "), then the implied headers no -H named or
// removed.
func (r *request) sentHeaders() []importer.Header {
	var out []importer.Header
	index := map[string]int{}
	for _, h := range r.headers {
		key := strings.ToLower(h.Name)
		i, seen := index[key]
		if !seen {
			index[key] = len(out)
			out = append(out, h)
			continue
		}
		sep := ", "
		if key == "cookie" {
			sep = "; "
		}
		out[i].Value += sep + h.Value
	}
	for _, h := range r.implied {
		key := strings.ToLower(h.Name)
		if _, named := index[key]; named || r.isRemoved(key) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// isRemoved reports whether a -H 'Name:' removed the header key (lower case).
func (r *request) isRemoved(key string) bool {
	for _, n := range r.removed {
		if strings.ToLower(n) == key {
			return true
		}
	}
	return false
}
