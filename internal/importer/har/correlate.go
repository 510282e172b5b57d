package har

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
)

// sub is a value a response handed out and a later request sent back: it
// is extracted from that response into a variable and sent as the variable.
type sub struct {
	value string
	name  string
	from  int // the step whose response has it
}

// correlate finds the values requests sent that an earlier response gave
// them, adds the extractions, and returns the substitutions, longest first.
func correlate(steps []*step) []*sub {
	var subs []*sub
	known := map[string]bool{}
	names := map[string]bool{"vu": true, "iteration": true, "scenario": true, "env": true}
	for i, s := range steps {
		for _, c := range candidates(s) {
			v := c.value
			if known[v] {
				continue
			}
			for j := i - 1; j >= 0; j-- {
				ex, ok := find(steps[j], v, c.hint)
				if !ok {
					continue
				}
				if sentBefore(steps[:j+1], v) {
					break // the client knew it before that response: not handed out
				}
				known[v] = true
				ex.Var = unique(names, ex.Var)
				steps[j].extract = append(steps[j].extract, ex)
				subs = append(subs, &sub{value: v, name: ex.Var, from: j})
				break
			}
		}
	}
	sort.SliceStable(subs, func(a, b int) bool { return len(subs[a].value) > len(subs[b].value) })
	return subs
}

// unique returns a variable name not yet used, from base.
func unique(used map[string]bool, base string) string {
	name := base
	for n := 2; used[name]; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	used[name] = true
	return name
}

var digits = regexp.MustCompile(`^[0-9]+$`)

// worth reports whether v looks like a value a server hands out (an id,
// a token) rather than a word both sides happen to use: a number of 3
// digits or more, or text of 8 characters or more with a digit in it, or of
// 16 or more.
func worth(v string) bool {
	if digits.MatchString(v) {
		return len(v) >= 3
	}
	if strings.ContainsAny(v, " \n\t") {
		return false
	}
	return len(v) >= 16 || (len(v) >= 8 && strings.ContainsAny(v, "0123456789"))
}

// candidate is a value a request sends, with the name of where it sends it.
type candidate struct{ value, hint string }

// candidates are the values a request sends that may have come from a response.
func candidates(s *step) []candidate {
	var out []candidate
	hint := ""
	add := func(v string) {
		if worth(v) {
			out = append(out, candidate{v, hint})
		}
	}
	for _, seg := range strings.Split(s.e.url.EscapedPath(), "/") {
		add(seg)
	}
	for _, kv := range strings.Split(s.e.url.RawQuery, "&") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			hint = k
			add(v)
		}
	}
	for _, h := range s.headers {
		switch strings.ToLower(h.Name) {
		case "accept", "accept-language", "user-agent", "referer", "origin", "content-type":
			continue
		}
		hint = h.Name
		if tok, ok := strings.CutPrefix(h.Value, "Bearer "); ok {
			add(tok)
		} else {
			add(h.Value)
		}
	}
	for _, c := range strings.Split(s.cookies, "; ") {
		if k, v, ok := strings.Cut(c, "="); ok {
			hint = k
			add(v)
		}
	}
	if s.hasBody {
		var doc any
		if json.Unmarshal([]byte(s.body), &doc) == nil {
			leaves(doc, "$", func(path string, v string) { hint = path; add(v) })
		} else if vals, err := url.ParseQuery(s.body); err == nil {
			for k, vs := range vals {
				hint = k
				for _, v := range vs {
					if !strings.ContainsAny(v, "&=") {
						add(url.QueryEscape(v))
					}
				}
			}
		}
	}
	return out
}

// leaves calls f with the path and text of every string and number in doc.
func leaves(doc any, path string, f func(path, text string)) {
	switch v := doc.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			leaves(v[k], memberPath(path, k), f)
		}
	case []any:
		for i, e := range v {
			leaves(e, fmt.Sprintf("%s[%d]", path, i), f)
		}
	case string:
		f(path, v)
	case float64:
		f(path, strconv.FormatFloat(v, 'f', -1, 64))
	}
}

var identKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func memberPath(path, key string) string {
	if identKey.MatchString(key) {
		return path + "." + key
	}
	return path + "['" + strings.ReplaceAll(key, "'", `\'`) + "']"
}

// responseText is a response's body as text.
func responseText(e *entry) string {
	c := e.Response.Content
	if c.Encoding == "base64" {
		b, err := base64.StdEncoding.DecodeString(c.Text)
		if err != nil {
			return ""
		}
		return string(b)
	}
	return c.Text
}

// find looks for v in s's response: a JSON value, a header, or the text
// around it in the body; it returns the extraction that yields v.
func find(s *step, v, hint string) (importer.Extract, bool) {
	body := responseText(s.resp)
	var doc any
	if body != "" && json.Unmarshal([]byte(body), &doc) == nil {
		var found importer.Extract
		ok := false
		leaves(doc, "$", func(path, text string) {
			if !ok && text == v {
				found, ok = importer.Extract{Var: varName(path), JSON: path}, true
			}
		})
		if ok {
			return found, true
		}
	}
	for _, h := range s.resp.Response.Headers {
		switch strings.ToLower(h.Name) {
		case "set-cookie", "date", "content-length", "etag", "last-modified", "expires":
			continue
		}
		if h.Value == v {
			return importer.Extract{Var: varName(h.Name), Header: h.Name}, true
		}
		if re, ok := around(h.Value, v); ok {
			return importer.Extract{Var: varName(h.Name), Header: h.Name, Regex: re}, true
		}
	}
	if doc == nil {
		if re, ok := around(body, v); ok {
			return importer.Extract{Var: varName(hint), Regex: re}, true
		}
	}
	return importer.Extract{}, false
}

var valueChars = regexp.MustCompile(`^[^"'<>&\s;,]+$`)

// around returns a regex whose first capture in text is v: v's preceding
// characters, then the characters a value is made of. It fails when the
// regex would first find something else.
func around(text, v string) (string, bool) {
	i := indexWord(text, v)
	if i < 0 || !valueChars.MatchString(v) {
		return "", false
	}
	start := max(0, i-24)
	if nl := strings.LastIndexByte(text[start:i], '\n'); nl >= 0 {
		start += nl + 1
	}
	before := text[start:i]
	if before == "" {
		return "", false
	}
	re := regexp.QuoteMeta(before) + `([^"'<>&\s;,]+)`
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil || m[1] != v {
		return "", false
	}
	return re, true
}

// varName makes a variable name from a JSON path's last member or a header name.
func varName(s string) string {
	if i := strings.LastIndexAny(s, ".["); i >= 0 && strings.HasPrefix(s, "$") {
		s = strings.Trim(s[i:], ".[]'")
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case b.Len() > 0:
			b.WriteByte('_')
		}
	}
	name := strings.Trim(b.String(), "_")
	if name == "" || digits.MatchString(name) {
		return "value"
	}
	return name
}

// isWordByte reports whether c continues a value, so a match next to it is
// part of something longer.
func isWordByte(c byte) bool {
	return c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// indexWord finds v in text where it is not part of a longer word.
func indexWord(text, v string) int {
	for off := 0; off < len(text); {
		i := strings.Index(text[off:], v)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(v)
		if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
			return i
		}
		off = i + 1
	}
	return -1
}

// sentBefore reports whether any of steps' requests sent v.
func sentBefore(steps []*step, v string) bool {
	for _, s := range steps {
		if indexWord(s.path, v) >= 0 || indexWord(s.body, v) >= 0 || indexWord(s.cookies, v) >= 0 {
			return true
		}
		for _, h := range s.headers {
			if indexWord(h.Value, v) >= 0 {
				return true
			}
		}
	}
	return false
}

// templ returns text as a template: the values of subs extracted before s
// become their variables, and the rest is literal.
func templ(text string, subs []*sub, s *step) string {
	var b strings.Builder
	for text != "" {
		best, at := (*sub)(nil), -1
		for _, c := range subs {
			if c.from >= indexOf(s) {
				continue
			}
			if i := indexWord(text, c.value); i >= 0 && (at < 0 || i < at) {
				best, at = c, i
			}
		}
		if best == nil {
			b.WriteString(importer.Lit(text))
			break
		}
		b.WriteString(importer.Lit(text[:at]))
		b.WriteString("{{ " + best.name + " }}")
		text = text[at+len(best.value):]
	}
	return b.String()
}

func indexOf(s *step) int { return s.idx }
