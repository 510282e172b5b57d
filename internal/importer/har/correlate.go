package har

import (
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

// correlation is what correlate found: the values to extract and send back.
type correlation struct {
	subs    []*sub       // longest value first
	byValue *dict        // the subs' values
	subOf   map[int]*sub // by their number in byValue
	stopped int          // the step at which correlation used its budget and stopped; -1 when it did not
}

// offer is a value a response hands out: the step whose response has it,
// and how to extract it (a regex on the body leaves Var to the request's hint).
type offer struct {
	step int
	ex   importer.Extract
}

// correlate finds the values requests sent that an earlier response gave
// them (the latest response that has each, unless a request had sent it
// before), and adds the extractions. It takes time linear in the
// recording: the values requests send are gathered first, then each
// response is searched once for all of them.
func correlate(steps []*step) *correlation {
	var size int64
	cands := make([][]candidate, len(steps))
	d := newDict(0)
	for i, s := range steps {
		cands[i] = candidates(s)
		for _, c := range cands[i] {
			d.add(c.value)
		}
		size += int64(len(s.path)+len(s.body)+len(s.cookies)+len(s.resp.text)) + 64*int64(len(s.headers))
	}
	d.budget = 32*size + 64<<20 // far above what a recording's values take; a crafted one stops here
	firstSent := sentFirst(steps, d)
	c := &correlation{subOf: map[int]*sub{}, stopped: -1}
	offers := map[int]offer{}
	decided := map[int]bool{} // correlated, or sent before it was handed out
	names := map[string]bool{"vu": true, "iteration": true, "scenario": true, "env": true}
	used := map[string]int{}
	for i, s := range steps {
		if d.spent() {
			c.stopped = i
			break
		}
		for _, cand := range cands[i] {
			id, _ := d.id(cand.value)
			o, ok := offers[id]
			if decided[id] || !ok {
				continue
			}
			decided[id] = true
			if firstSent[id] <= o.step {
				continue // the client knew it before that response: not handed out
			}
			ex := o.ex
			if ex.Var == "" {
				ex.Var = varName(cand.hint)
			}
			ex.Var = unique(names, used, ex.Var)
			steps[o.step].extract = append(steps[o.step].extract, ex)
			c.subs = append(c.subs, &sub{value: cand.value, name: ex.Var, from: o.step})
		}
		for id, ex := range offered(s, d) {
			offers[id] = offer{i, ex}
		}
	}
	sort.SliceStable(c.subs, func(a, b int) bool { return len(c.subs[a].value) > len(c.subs[b].value) })
	c.byValue = newDict(0)
	for _, sb := range c.subs {
		c.subOf[c.byValue.add(sb.value)] = sb
	}
	return c
}

// sentFirst returns, for each value of d, the first step whose request
// sent it as a word anywhere (path, body, cookies, headers), or
// len(steps) when none did.
func sentFirst(steps []*step, d *dict) []int {
	first := make([]int, len(d.vals))
	for i := range first {
		first[i] = len(steps)
	}
	mark := func(i int) func(int, int) {
		return func(_, id int) { first[id] = min(first[id], i) }
	}
	for i, s := range steps {
		d.each(s.path, mark(i))
		d.each(s.body, mark(i))
		d.each(s.cookies, mark(i))
		for _, h := range s.headers {
			d.each(h.Value, mark(i))
		}
	}
	return first
}

// offered returns the values of d that s's response hands out, each with
// its extraction: a JSON value first, then a header (whole, or the text
// around it), then the text around it in a body that is not JSON.
func offered(s *step, d *dict) map[int]importer.Extract {
	out := map[int]importer.Extract{}
	body := s.resp.text
	var doc any
	if body != "" && json.Unmarshal([]byte(body), &doc) == nil {
		leaves(doc, "$", func(path, text string) {
			if id, ok := d.id(text); ok {
				if _, has := out[id]; !has {
					out[id] = importer.Extract{Var: varName(path), JSON: path}
				}
			}
		})
	}
	for _, h := range s.resp.Response.Headers {
		switch strings.ToLower(h.Name) {
		case "set-cookie", "date", "content-length", "etag", "last-modified", "expires":
			continue
		}
		if id, ok := d.id(h.Value); ok {
			if _, has := out[id]; !has {
				out[id] = importer.Extract{Var: varName(h.Name), Header: h.Name}
			}
		}
		aroundEach(h.Value, d, out, func(re string) importer.Extract {
			return importer.Extract{Var: varName(h.Name), Header: h.Name, Regex: re}
		})
	}
	if doc == nil {
		aroundEach(body, d, out, func(re string) importer.Extract { return importer.Extract{Regex: re} })
	}
	return out
}

// aroundEach adds to out each value of d that occurs in text where a regex
// on the text before it finds it (see around), once each: at its first
// occurrence as a word, as a search of the text would find it.
func aroundEach(text string, d *dict, out map[int]importer.Extract, extract func(re string) importer.Extract) {
	tried := map[int]bool{}
	d.each(text, func(i, id int) {
		if _, has := out[id]; has || tried[id] {
			return
		}
		tried[id] = true
		d.work += int64(i) // around looks for the text before it from the start
		if re, ok := around(text, d.vals[id], i); ok {
			out[id] = extract(re)
		}
	})
}

// unique returns a variable name not yet used, from base; used counts the
// names made from each base, so that many need not be tried each time.
func unique(names map[string]bool, used map[string]int, base string) string {
	name := base
	for n := max(2, used[base]); names[name]; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
		used[base] = n + 1
	}
	names[name] = true
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

var valueChars = regexp.MustCompile(`^[^"'<>&\s;,]+$`)

// around returns a regex whose first capture in text is v, which occurs as
// a word at i: v's preceding characters (up to 24, on its line), then the
// characters a value is made of. It fails when the regex would first find
// something else. The regex is not run: its first match is where the text
// before v first occurs followed by a value's character, and its capture
// is the run of those characters from there.
func around(text, v string, i int) (string, bool) {
	if !valueChars.MatchString(v) {
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
	for off := 0; off <= start; {
		p := strings.Index(text[off:], before)
		if p < 0 {
			break
		}
		at := off + p + len(before)
		if at < len(text) && isValueByte(text[at]) {
			end := at
			for end < len(text) && isValueByte(text[end]) {
				end++
			}
			if text[at:end] != v {
				return "", false
			}
			return regexp.QuoteMeta(before) + `([^"'<>&\s;,]+)`, true
		}
		off += p + 1
	}
	return "", false
}

// isValueByte reports whether c is one of the characters of a value the
// regex of around captures ([^"'<>&\s;,]: any byte of a multi-byte rune).
func isValueByte(c byte) bool {
	switch c {
	case '"', '\'', '<', '>', '&', ';', ',', ' ', '\t', '\n', '\f', '\r':
		return false
	}
	return true
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

// templ returns text as a template: the values of subs extracted before s
// become their variables (the earliest, and the longest there, first), and
// the rest is literal.
func (c *correlation) templ(text string, s *step) string {
	if len(c.subs) == 0 {
		return importer.Lit(text)
	}
	var b strings.Builder
	done := 0 // text[:done] is written
	for i := 0; i < len(text); i++ {
		if i > done && isWordByte(text[i-1]) {
			continue // inside a word; right after a value sent back, the rest is searched anew
		}
		var best *sub
		c.byValue.at(text, i, func(id int) bool {
			if sb := c.subOf[id]; sb.from < s.idx {
				best = sb
				return false
			}
			return true
		})
		if best == nil {
			continue
		}
		b.WriteString(importer.Lit(text[done:i]))
		b.WriteString("{{ " + best.name + " }}")
		done = i + len(best.value)
		i = done - 1
	}
	b.WriteString(importer.Lit(text[done:]))
	return b.String()
}
