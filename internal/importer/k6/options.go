package k6

import (
	"strconv"
	"strings"
	"time"

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
		case p.key == "setupTimeout" || p.key == "teardownTimeout":
			s.hookTimeout(p.key, v, at)
		default:
			s.note("%s: option %s", at, p.key)
		}
	}
}

// hookTimeout carries k6's setupTimeout or teardownTimeout (key) over to
// setup_timeout: or teardown_timeout: when the hook it bounds was converted
// and the value is a duration known now ("30s", or milliseconds); else a note.
func (s *script) hookTimeout(key string, v value, at string) {
	hook, bound := s.t.Setup, &s.t.SetupTimeout
	if key == "teardownTimeout" {
		hook, bound = s.t.Teardown, &s.t.TeardownTimeout
	}
	d := ""
	switch v.kind {
	case "str":
		if t, err := time.ParseDuration(v.text); err == nil && t > 0 {
			d = v.text
		}
	case "num":
		if isCount(v.text) && strings.Trim(v.text, "0") != "" {
			d = v.text + "ms" // k6 reads a number as milliseconds
		}
	}
	switch {
	case d == "":
		s.note("%s: option %s: a duration the import cannot work out", at, key)
	case len(hook) == 0:
		s.note("%s: option %s: the script has no %s the import converts", at, key, strings.TrimSuffix(key, "Timeout"))
	default:
		*bound = d
	}
}

// isCount reports whether a number as written is a whole number ≥ 0.
func isCount(n string) bool {
	return n != "" && strings.Trim(n, "0123456789") == ""
}
