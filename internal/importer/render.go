package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// Render writes t as a test file named file and parses it as loadlens
// would, so an import never hands over a test that does not validate.
func Render(t *Test, file string) ([]byte, error) {
	out := t.yaml()
	noEnv := func(string) (string, bool) { return "", false }
	if _, err := plan.ParseImported(file, out, noEnv); err != nil { // its .proto files are placed after
		unwritten(err)
		if tooLarge(err) {
			return out, fmt.Errorf("%w, so it was not written; import less of the source (its line:column):\n%w", ErrTooLarge, err)
		}
		return out, fmt.Errorf("the imported test does not validate, so it was not written (a bug in the import; please report it with the source); at its line:column:\n%w", err)
	}
	return out, nil
}

// unwritten drops the file's name from err's positions: a test that does
// not validate is not written, and "t.yaml:16:5" would send the reader to
// a file that is not there (or to an older one of that name).
func unwritten(err error) {
	var perrs plan.Errors
	var perr *plan.Error
	switch {
	case errors.As(err, &perrs):
		for _, e := range perrs {
			e.File = ""
		}
	case errors.As(err, &perr):
		perr.File = ""
	}
}

// ErrTooLarge is an imported test larger than a test file may be: a large
// source, not a bug of the import.
var ErrTooLarge = errors.New("the imported test is larger than a test file may be")

// tooLarge reports whether err is a test file's limit (its size, its
// entries, a mapping's keys), which a large source reaches without a bug
// in the import.
func tooLarge(err error) bool {
	var perrs plan.Errors
	var perr *plan.Error
	switch {
	case errors.As(err, &perrs) && len(perrs) == 1:
		perr = perrs[0]
	case !errors.As(err, &perr):
		return false
	}
	return strings.Contains(perr.Msg, "a test file may be at most") || strings.Contains(perr.Msg, "YAML entries") ||
		strings.Contains(perr.Msg, "keys in one mapping") || strings.Contains(perr.Msg, "keys in mappings of")
}

// plain matches text that YAML reads back as the same string when unquoted.
var plain = regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./()-]*$`)

// reserved are unquoted words YAML would read as something else.
var reserved = map[string]bool{"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true, "null": true, "y": true, "n": true}

// q writes s as a YAML scalar that reads back as the string s.
func q(s string) string {
	if plain.MatchString(s) && !reserved[strings.ToLower(s)] {
		return s
	}
	if !strings.Contains(s, "'") && printable(s) {
		return "'" + s + "'" // reads better than escaped double quotes, for templates
	}
	return jsonString(s)
}

// printable reports whether s has no control characters, which only a
// double-quoted scalar can escape.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff {
			return false
		}
	}
	return true
}

// jsonString is s as a JSON string, which is also a YAML double-quoted string.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// comment writes text as comment lines with prefix.
func comment(b *strings.Builder, indent, text string) {
	for _, line := range strings.Split(text, "\n") {
		b.WriteString(strings.TrimRight(indent+"# "+line, " ") + "\n")
	}
}

func (t *Test) yaml() []byte {
	var b strings.Builder
	if t.Source != "" {
		comment(&b, "", "Imported by loadlens from "+t.Source+".")
	}
	for _, n := range t.Notes {
		comment(&b, "", n)
	}
	if len(t.Read) > 0 {
		comment(&b, "", "")
		comment(&b, "", "Copied into this test from files of the machine it was imported on:")
		for _, f := range t.Read {
			comment(&b, "", "  - "+f.String())
		}
	}
	if len(t.NotConverted) > 0 {
		comment(&b, "", "")
		comment(&b, "", "Not converted:")
		for _, n := range t.NotConverted {
			comment(&b, "", "  - "+n)
		}
	}
	fmt.Fprintf(&b, "name: %s\n", q(t.Name))
	if t.BaseURL != "" {
		fmt.Fprintf(&b, "base_url: %s\n", q(t.BaseURL))
	}
	if t.Insecure {
		b.WriteString("insecure_skip_tls_verify: true\n")
	}
	if t.Redirects != "" {
		fmt.Fprintf(&b, "redirects: %s\n", t.Redirects)
	}
	writeHeaders(&b, "", t.Headers)
	if len(t.Metrics) > 0 {
		b.WriteString("metrics:\n")
		writeKVs(&b, "  ", t.Metrics)
	}
	if len(t.Thresholds) > 0 {
		b.WriteString("thresholds:\n")
		for _, th := range t.Thresholds {
			fmt.Fprintf(&b, "  %s:\n", q(th.Metric))
			for _, e := range th.Exprs {
				if th.Abort {
					fmt.Fprintf(&b, "    - threshold: %s\n      abort_on_fail: true\n", q(e))
					if th.DelayAbort != "" {
						fmt.Fprintf(&b, "      delay_abort_eval: %s\n", q(th.DelayAbort))
					}
					continue
				}
				fmt.Fprintf(&b, "    - %s\n", q(e))
			}
		}
	}
	writeHook(&b, "setup", t.Setup, t.SetupTimeout)
	b.WriteString("scenarios:\n")
	for _, s := range t.Scenarios {
		fmt.Fprintf(&b, "  %s:\n", q(s.Name))
		writeKVs(&b, "    ", s.Load)
		b.WriteString("    flow:\n")
		for _, st := range s.Flow {
			writeStep(&b, "      ", st)
		}
	}
	writeHook(&b, "teardown", t.Teardown, t.TeardownTimeout)
	return []byte(b.String())
}

// writeHook writes a setup: or teardown: flow, when there is one, after
// its bound (setup_timeout:) when one was given.
func writeHook(b *strings.Builder, key string, flow []Step, timeout string) {
	if len(flow) == 0 {
		return
	}
	if timeout != "" {
		fmt.Fprintf(b, "%s_timeout: %s\n", key, timeout) // a duration time.ParseDuration read: plain YAML
	}
	b.WriteString(key + ":\n")
	for _, st := range flow {
		writeStep(b, "  ", st)
	}
}

func writeHeaders(b *strings.Builder, indent string, hs []Header) {
	if len(hs) == 0 {
		return
	}
	fmt.Fprintf(b, "%sheaders:\n", indent)
	for _, h := range hs {
		fmt.Fprintf(b, "%s  %s: %s\n", indent, q(h.Name), q(h.Value))
	}
}

func writeKVs(b *strings.Builder, indent string, kvs []KV) {
	for _, kv := range kvs {
		switch v := kv.Value.(type) {
		case Raw:
			fmt.Fprintf(b, "%s%s: %s\n", indent, q(kv.Key), string(v))
		case string:
			fmt.Fprintf(b, "%s%s: %s\n", indent, q(kv.Key), q(v))
		case []Stage:
			fmt.Fprintf(b, "%s%s:\n", indent, q(kv.Key))
			for _, st := range v {
				fmt.Fprintf(b, "%s  - {duration: %s, target: %s}\n", indent, q(st.Duration), st.Target)
			}
		case []KV:
			fmt.Fprintf(b, "%s%s:\n", indent, q(kv.Key))
			writeKVs(b, indent+"  ", v)
		}
	}
}

func writeStep(b *strings.Builder, indent string, st Step) {
	if st.Comment != "" {
		comment(b, indent, st.Comment)
	}
	if writeControlStep(b, indent, st) {
		return
	}
	if st.Think != "" {
		fmt.Fprintf(b, "%s- think: %s\n", indent, q(st.Think))
		return
	}
	in := indent + "  "
	if writeSessionStep(b, indent, st) {
		return
	}
	method := strings.ToLower(st.Method)
	switch method {
	case "get", "post", "put", "patch", "delete", "head", "options":
		fmt.Fprintf(b, "%s- %s: %s\n", indent, method, q(st.Path))
	default:
		fmt.Fprintf(b, "%s- method: %s\n%spath: %s\n", indent, q(st.Method), in, q(st.Path))
	}
	if st.Name != "" {
		fmt.Fprintf(b, "%sname: %s\n", in, q(st.Name))
	}
	writeHeaders(b, in, st.Headers)
	switch {
	case st.JSON != nil:
		fmt.Fprintf(b, "%sjson: %s\n", in, jsonValue(st.JSON))
	case len(st.Form) > 0:
		fmt.Fprintf(b, "%sform:\n", in)
		writeKVs(b, in+"  ", st.Form)
	case st.HasBody:
		fmt.Fprintf(b, "%sbody: %s\n", in, q(st.Body))
	}
	if st.Timeout != "" {
		fmt.Fprintf(b, "%stimeout: %s\n", in, st.Timeout)
	}
	if st.Redirects != "" {
		fmt.Fprintf(b, "%sredirects: %s\n", in, st.Redirects)
	}
	if len(st.ExpectStatus) > 0 {
		fmt.Fprintf(b, "%sexpect_status: %s\n", in, intList(st.ExpectStatus))
	}
	writeChecks(b, in, st)
}

// writeChecks writes a step's checks and extractions.
func writeChecks(b *strings.Builder, in string, st Step) {
	if len(st.Check) > 0 {
		fmt.Fprintf(b, "%scheck:\n", in)
		for _, c := range st.Check {
			if st.GRPC != nil && len(c.Status) > 0 {
				fmt.Fprintf(b, "%s  - %s\n", in, grpcStatusYAML(c))
				continue
			}
			fmt.Fprintf(b, "%s  - %s\n", in, checkYAML(c))
		}
	}
	if len(st.Extract) > 0 {
		fmt.Fprintf(b, "%sextract:\n", in)
		for _, e := range st.Extract {
			var parts []string
			if e.JSON != "" {
				parts = append(parts, "json: "+q(e.JSON))
			}
			if e.Header != "" {
				parts = append(parts, "header: "+q(e.Header))
			}
			if e.Regex != "" {
				parts = append(parts, "regex: "+jsonString(e.Regex))
			}
			if e.Default != nil {
				parts = append(parts, "default: "+q(*e.Default))
			}
			fmt.Fprintf(b, "%s  %s: {%s}\n", in, e.Var, strings.Join(parts, ", "))
		}
	}
}

func intList(xs []int) string {
	if len(xs) == 1 {
		return strconv.Itoa(xs[0])
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// checkYAML writes a check as a flow mapping.
func checkYAML(c Check) string {
	var parts []string
	if c.Name != "" {
		parts = append(parts, "name: "+jsonString(c.Name))
	}
	switch {
	case len(c.Status) > 0:
		parts = append(parts, "status: "+intList(c.Status))
	case c.BodyContains != "":
		parts = append(parts, "body_contains: "+jsonString(c.BodyContains))
	case c.BodyMatches != "":
		parts = append(parts, "body_matches: "+jsonString(c.BodyMatches))
	case c.JSON != "":
		parts = append(parts, "json: "+jsonString(c.JSON))
		switch v := c.Value.(type) {
		case Raw:
			parts = append(parts, c.Op+": "+string(v))
		case string:
			parts = append(parts, c.Op+": "+jsonString(v))
		case bool:
			parts = append(parts, c.Op+": "+strconv.FormatBool(v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// jsonValue writes v as JSON, which YAML reads as the same structure; its
// strings are templates, as a json: body's are.
func jsonValue(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case Object:
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(jsonString(m.Key))
			b.WriteString(": ")
			writeJSON(b, m.Value)
		}
		b.WriteByte('}')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := make(Object, len(keys))
		for i, k := range keys {
			o[i] = Member{k, x[k]}
		}
		writeJSON(b, o)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case string:
		b.WriteString(jsonString(x))
	case json.Number:
		b.WriteString(x.String())
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	default:
		b.WriteString(jsonString(fmt.Sprint(x)))
	}
}
