package k6

import (
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
)

// loadOptions are the options the load and the thresholds are made of.
var loadOptions = map[string]bool{"vus": true, "duration": true, "iterations": true, "stages": true, "scenarios": true, "thresholds": true}

// otherOptions converts the options besides the load that a test has
// (insecureSkipTLSVerify, maxRedirects, userAgent) and notes every other
// one with its line: an option left out silently may change what is
// sent (a test that follows 10 redirects where k6 stops at 5).
func (s *script) otherOptions() {
	for _, p := range s.options.obj {
		at := s.at(p.key)
		if line := s.lineOf(p.key + ":"); line > 0 {
			at = "line " + strconv.Itoa(line)
		}
		switch v := p.val; {
		case loadOptions[p.key]:
		case p.key == "insecureSkipTLSVerify" && v.kind == "bool":
			s.t.Insecure = v.b
		case p.key == "maxRedirects" && v.kind == "num" && isCount(v.text):
			s.t.Redirects = v.text
			s.t.Notes = append(s.t.Notes, "maxRedirects: a request that would need more redirects fails as kind redirect here; k6 answers it with the last redirect.")
		case p.key == "userAgent" && v.kind == "str":
			s.t.Headers = append(s.t.Headers, importer.Header{Name: "User-Agent", Value: v.text})
		default:
			s.note("%s: option %s", at, p.key)
		}
	}
}

// isCount reports whether a number as written is a whole number ≥ 0.
func isCount(n string) bool {
	return n != "" && strings.Trim(n, "0123456789") == ""
}
