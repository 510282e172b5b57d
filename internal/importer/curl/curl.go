// Package curl imports curl command lines — as browsers' "Copy as cURL"
// writes them (bash or cmd quoting), or from a ticket — into a test: one
// request step per curl command, in order.
package curl

import (
	"encoding/base64"
	"fmt"
	"mime"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/units"
)

// request is what one curl command sends.
type request struct {
	method   string
	url      *url.URL
	headers  []importer.Header // -H's, in order
	implied  []importer.Header // -u, -b, -A, -e's: a -H of the same name replaces them, as in curl
	removed  []string          // -H 'Name:': names curl would send and does not
	data     []string          // -d pieces, joined with &
	hasData  bool
	json     bool     // --json
	get      bool     // -G: data goes to the query
	query    []string // --url-query's pieces, encoded, joined to the URL's query with &
	head     bool     // -I
	form     []formPart
	timeout  string
	insecure bool
	files    []importer.LocalFile // local files copied into the request
}

type formPart struct {
	name, value, file, typ string
}

// option says how curl reads an option: whether it takes a value, and what
// the import does with it.
type option struct {
	value  bool
	ignore string // why it is left out without a note ("" when it is handled or reported)
}

var longOptions = map[string]option{
	"request": {value: true}, "header": {value: true}, "data": {value: true}, "data-raw": {value: true},
	"data-binary": {value: true}, "data-ascii": {value: true}, "data-urlencode": {value: true}, "json": {value: true},
	"form": {value: true}, "form-string": {value: true}, "user": {value: true}, "cookie": {value: true},
	"user-agent": {value: true}, "referer": {value: true}, "url": {value: true}, "max-time": {value: true},
	"url-query": {value: true}, "oauth2-bearer": {value: true}, "get": {}, "head": {}, "insecure": {},
	// Accepted and of no consequence for a load test.
	"compressed": {ignore: "-"}, "location": {ignore: "-"}, "silent": {ignore: "-"}, "show-error": {ignore: "-"},
	"verbose": {ignore: "-"}, "include": {ignore: "-"}, "fail": {ignore: "-"}, "no-buffer": {ignore: "-"},
	"globoff": {ignore: "-"}, "path-as-is": {ignore: "-"}, "http1.1": {ignore: "-"}, "http2": {ignore: "-"},
	"http2-prior-knowledge": {ignore: "-"}, "tlsv1.2": {ignore: "-"}, "tlsv1.3": {ignore: "-"}, "progress-bar": {ignore: "-"},
	"output": {value: true, ignore: "-"}, "write-out": {value: true, ignore: "-"}, "connect-timeout": {value: true, ignore: "-"},
	"retry": {value: true, ignore: "-"}, "max-redirs": {value: true, ignore: "-"}, "basic": {ignore: "-"},
	// Taking a value, and not converted.
	"proxy": {value: true}, "cacert": {value: true}, "cert": {value: true}, "key": {value: true}, "resolve": {value: true},
	"upload-file": {value: true}, "cookie-jar": {value: true}, "limit-rate": {value: true},
}

var shortOptions = map[byte]string{
	'X': "request", 'H': "header", 'd': "data", 'F': "form", 'u': "user", 'b': "cookie", 'A': "user-agent",
	'e': "referer", 'm': "max-time", 'G': "get", 'I': "head", 'k': "insecure", 's': "silent", 'S': "show-error",
	'L': "location", 'v': "verbose", 'i': "include", 'f': "fail", 'N': "no-buffer", 'g': "globoff",
	'o': "output", 'w': "write-out", 'x': "proxy", 'T': "upload-file", 'c': "cookie-jar", 'E': "cert",
}

// maxCommands is the most curl commands an import reads, one step each.
const maxCommands = 10000

// Import reads the curl commands in text (one or several, on as many lines
// as they take) and returns a test with one step per command.
func Import(text string) (*importer.Test, error) {
	cmds, err := commands(text)
	if err != nil {
		return nil, err
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("no curl command found (the text should start with curl)")
	}
	if len(cmds) > maxCommands {
		return nil, fmt.Errorf("more than %s curl commands (read one by one, up to there); a test file holds about 5,000 steps",
			units.Count(maxCommands))
	}
	t := &importer.Test{Source: units.CountOf(int64(len(cmds)), "curl command", "curl commands")}
	var reqs []*request
	for i, args := range cmds {
		r, err := parse(args, func(s string) { t.NotConverted = append(t.NotConverted, fmt.Sprintf("command %d: %s", i+1, s)) })
		if err != nil {
			return nil, fmt.Errorf("command %d: %v", i+1, err)
		}
		reqs = append(reqs, r)
	}
	build(t, reqs)
	return t, nil
}

// parse reads one command's arguments.
func parse(args []string, skipped func(string)) (*request, error) {
	r := &request{}
	var urls []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		var name, value string
		var hasValue bool
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name = a[2:]
			if n, v, ok := strings.Cut(name, "="); ok {
				if _, known := longOptions[n]; known {
					name, value, hasValue = n, v, true
				}
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// Short options may cluster (-sSL) and take their value attached (-XPOST) or next.
			j := 1
			for ; j < len(a); j++ {
				long, ok := shortOptions[a[j]]
				if !ok {
					skipped(fmt.Sprintf("option -%c is not known to the import", a[j]))
					continue
				}
				if longOptions[long].value {
					name = long
					if j+1 < len(a) {
						value, hasValue = a[j+1:], true
					}
					break
				}
				if err := apply(r, long, "", skipped); err != nil {
					return nil, err
				}
			}
			if name == "" {
				continue
			}
		default:
			urls = append(urls, a)
			continue
		}
		opt, known := longOptions[name]
		if !known {
			skipped(fmt.Sprintf("option --%s is not known to the import", name))
			continue
		}
		if opt.value && !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if name == "url" {
			urls = append(urls, value)
			continue
		}
		if err := apply(r, name, value, skipped); err != nil {
			return nil, err
		}
	}
	u, err := firstURL(urls, skipped)
	if err != nil {
		return nil, err
	}
	r.url = u
	return r, nil
}

// firstURL parses the command's first URL (curl's default scheme is
// http), noting the others as skipped.
func firstURL(urls []string, skipped func(string)) (*url.URL, error) {
	if len(urls) == 0 {
		return nil, fmt.Errorf("no URL")
	}
	if len(urls) > 1 {
		skipped(fmt.Sprintf("only the first URL is imported; also given: %s", strings.Join(urls[1:], ", ")))
	}
	raw := urls[0]
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(varPattern.ReplaceAllString(raw, urlVarMark+"${1}"+urlVarMark))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("bad URL %q: loadlens sends http:// and https:// requests", shown(urls[0]))
	}
	if m := urlVarPattern.FindStringSubmatch(u.Host + u.User.String()); m != nil {
		return nil, fmt.Errorf("URL %q: the shell variable $%s names its host or credentials, which a test's base_url cannot take from a variable per step; write the URL, and pass it as -e BASE_URL=... to the imported test", shown(urls[0]), m[1])
	}
	return u, nil
}

// apply records one option.
func apply(r *request, name, value string, skipped func(string)) error {
	switch name {
	case "request":
		r.method = strings.ToUpper(value)
	case "header":
		if path, ok := strings.CutPrefix(value, "@"); ok {
			r.addHeaderFile(path, skipped)
			return nil
		}
		r.addHeader(value, skipped)
	case "data", "data-ascii", "data-binary", "data-raw", "json":
		r.addData(name, value, skipped)
	case "data-urlencode":
		r.addURLEncoded(value, skipped)
	case "form", "form-string":
		return r.addForm(name, value, skipped)
	case "user":
		if varPattern.MatchString(value) { // encoding the markers would make a valid-looking, wrong credential
			skipped(fmt.Sprintf("-u %s: its credentials come from shell variables, which a test cannot Base64-encode; add -H 'Authorization: Basic ...' with the encoded value, or -H 'Authorization: {{ env.AUTH }}'", shown(value)))
			return nil
		}
		r.imply("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(value)))
	case "cookie":
		if !strings.Contains(value, "=") {
			skipped(fmt.Sprintf("-b %s reads cookies from a file", value))
			return nil
		}
		r.imply("Cookie", value)
	case "url-query":
		r.addURLQuery(value, skipped)
	case "oauth2-bearer":
		r.imply("Authorization", "Bearer "+value)
	case "user-agent":
		r.imply("User-Agent", value)
	case "referer":
		r.imply("Referer", value)
	case "max-time":
		r.timeout = value + "s"
	case "get":
		r.get = true
	case "head":
		r.head = true
	case "insecure":
		r.insecure = true
	default:
		if o := longOptions[name]; o.ignore == "" {
			skipped(fmt.Sprintf("--%s %s", name, value))
		}
	}
	return nil
}

// addData records a --data option's body, reading a @file (not for
// --data-raw).
func (r *request) addData(name, value string, skipped func(string)) {
	if name != "data-raw" && strings.HasPrefix(value, "@") {
		b, ok := r.readText(value[1:], "the body, --"+name, func(why string) { skipped(fmt.Sprintf("--%s %s: %s", name, value, why)) })
		if !ok {
			return
		}
		value = b
		if name != "data-binary" && name != "json" {
			value = strings.NewReplacer("\r", "", "\n", "").Replace(value) // as curl does for -d @file
		}
	}
	r.data, r.hasData = append(r.data, value), true
	r.json = r.json || name == "json"
}

// addURLEncoded records a --data-urlencode option's body, encoded.
func (r *request) addURLEncoded(value string, skipped func(string)) {
	value, ok := encodedPiece("--data-urlencode", value, skipped)
	if !ok {
		return
	}
	value = escapedVarPattern.ReplaceAllString(value, varMark+"${1}"+varMark) // a variable's value is sent as -e gives it
	r.data, r.hasData = append(r.data, value), true
}

// addURLQuery records a --url-query option's piece, as curl encodes it:
// name=content and =content with content encoded, +piece as it is.
func (r *request) addURLQuery(value string, skipped func(string)) {
	if raw, ok := strings.CutPrefix(value, "+"); ok {
		r.query = append(r.query, raw)
		return
	}
	if value, ok := encodedPiece("--url-query", value, skipped); ok {
		r.query = append(r.query, value)
	}
}

// encodedPiece encodes a --data-urlencode or --url-query value as curl
// does (content, =content, name=content: the content percent-encoded, a
// space as + as curl 7.88 sends it); a name@file, which reads a file, is
// skipped and false.
func encodedPiece(option, value string, skipped func(string)) (string, bool) {
	k, v, hasEq := strings.Cut(value, "=")
	switch {
	case !hasEq && strings.Contains(value, "@"):
		skipped(fmt.Sprintf("%s %q reads a file", option, value))
		return "", false
	case !hasEq:
		value = url.QueryEscape(value)
	case k == "":
		value = url.QueryEscape(v)
	default:
		value = k + "=" + url.QueryEscape(v)
	}
	return value, true
}

// addForm records a -F option's part: a value, a @file to send or a <file
// to read in.
func (r *request) addForm(name, value string, skipped func(string)) error {
	k, v, ok := strings.Cut(value, "=")
	if !ok {
		return fmt.Errorf("-F %q: expected name=value", value)
	}
	p := formPart{name: k, value: v}
	if name == "form" {
		if v2, typ, ok := strings.Cut(v, ";type="); ok {
			v, p.typ = v2, typ
			p.value = v
		}
		switch {
		case strings.HasPrefix(v, "@"):
			p.file = v[1:]
		case strings.HasPrefix(v, "<"):
			b, ok := r.readText(v[1:], "the form field "+k, func(why string) { skipped(fmt.Sprintf("-F %s=%s: %s", k, v, why)) })
			if !ok {
				return nil
			}
			p.value = b
		}
	}
	r.form = append(r.form, p)
	return nil
}

// shown is a word as the user wrote it: $NAME for a shell variable.
func shown(s string) string {
	return varPattern.ReplaceAllString(s, "$$$1")
}

// boundary separates the parts of a multipart body the import writes.
const boundary = "loadlens-import-boundary-7MA4YWxkTrZu0gW"

// build turns the requests into the test's one scenario.
func build(t *importer.Test, reqs []*request) {
	base := commonOrigin(reqs)
	t.BaseURL = `{{ env("BASE_URL", "` + importer.Lit(base) + `") }}`
	t.Name = "curl-" + sanitize(reqs[0].url.Host)
	var flow []importer.Step
	usesVars := false
	withEnv := func(s string) string {
		usesVars = usesVars || varPattern.MatchString(s) || urlVarPattern.MatchString(s)
		s = urlVarPattern.ReplaceAllString(s, `{{ env("$1", "") }}`)
		return varPattern.ReplaceAllString(s, `{{ env("$1", "") }}`)
	}
	for i, r := range reqs {
		st, body := requestLine(r, base)
		hs := bodyAndHeaders(t, r, body, &st)
		if r.insecure {
			t.Insecure = true
		}
		st.Timeout = r.timeout
		st.Body = importer.Lit(st.Body)
		for _, h := range hs {
			if dropped(h.Name) {
				continue
			}
			st.Headers = append(st.Headers, importer.Header{Name: h.Name, Value: withEnv(importer.Lit(h.Value))})
		}
		st.Path = withEnv(st.Path)
		st.Body = withEnv(st.Body)
		flow = append(flow, st)
		for _, f := range r.files {
			f.Into = fmt.Sprintf("command %d: %s", i+1, f.Into)
			t.Read = append(t.Read, f)
		}
	}
	t.Headers, flow = importer.HoistHeaders(flow)
	t.Scenarios = []*importer.Scenario{{Name: "default", Load: importer.DefaultLoad(), Flow: flow}}
	t.Notes = append(t.Notes, "Each VU sends the commands' requests in order, again and again; set the load below.")
	if usesVars {
		t.Notes = append(t.Notes, "Shell variables ($NAME) became {{ env(\"NAME\", \"\") }}: pass them with -e NAME=value.")
	}
}

// requestLine returns a request's step with its method, path (with the
// origin when it is not the test's base) and name, and its --data body;
// a -G request's data goes into the query.
func requestLine(r *request, base string) (importer.Step, string) {
	st := importer.Step{Method: r.method}
	q := strings.Join(append([]string{r.url.RawQuery}[:min(1, len(r.url.RawQuery))], r.query...), "&")
	body := strings.Join(r.data, "&")
	switch {
	case r.get && r.hasData:
		if q != "" {
			q += "&"
		}
		q += body
		r.hasData = false
	}
	if st.Method == "" {
		switch {
		case r.head:
			st.Method = "HEAD"
		case r.hasData || len(r.form) > 0:
			st.Method = "POST"
		default:
			st.Method = "GET"
		}
	}
	path := r.url.EscapedPath()
	if path == "" {
		path = "/"
	}
	if q != "" {
		path += "?" + q
	}
	if origin(r.url) != base {
		path = origin(r.url) + path
	}
	st.Path = importer.Lit(path)
	if q != "" {
		st.Name = importer.Lit(r.url.EscapedPath())
		if origin(r.url) != base {
			st.Name = importer.Lit(origin(r.url) + r.url.EscapedPath())
		}
		st.Name = urlVarPattern.ReplaceAllString(st.Name, "{$1}") // a name is not a template
	}
	return st, body
}

// bodyAndHeaders sets the step's body from the form or the data, and
// returns the request's headers with the Content-Type (and Accept) the
// body implies.
func bodyAndHeaders(t *importer.Test, r *request, body string, st *importer.Step) []importer.Header {
	hs := r.sentHeaders()
	has := func(name string) bool {
		for _, h := range hs {
			if strings.EqualFold(h.Name, name) {
				return true
			}
		}
		return false
	}
	switch {
	case len(r.form) > 0:
		text, skipped := r.multipart()
		t.NotConverted = append(t.NotConverted, skipped...)
		st.Body, st.HasBody = text, true
		if !has("Content-Type") {
			hs = append(hs, importer.Header{Name: "Content-Type", Value: "multipart/form-data; boundary=" + boundary})
		}
	case r.hasData:
		st.Body, st.HasBody = body, true
		if r.json {
			if !has("Content-Type") {
				hs = append(hs, importer.Header{Name: "Content-Type", Value: "application/json"})
			}
			if !has("Accept") {
				hs = append(hs, importer.Header{Name: "Accept", Value: "application/json"})
			}
		} else if !has("Content-Type") {
			hs = append(hs, importer.Header{Name: "Content-Type", Value: "application/x-www-form-urlencoded"})
		}
	}
	return hs
}

// dropped reports whether a header is one loadlens sets itself, or the
// browser's own bookkeeping that "Copy as cURL" carries along (as a HAR
// import drops it): fetch metadata, client hints, priority, and
// compression, since bodies are read for checks and extractions.
func dropped(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "content-length", "host", "connection", "transfer-encoding", "priority", "accept-encoding", "te", "upgrade-insecure-requests":
		return true
	}
	return strings.HasPrefix(n, "sec-")
}

// multipart writes -F parts as a multipart/form-data body.
func (r *request) multipart() (string, []string) {
	var b strings.Builder
	var skipped []string
	for _, p := range r.form {
		b.WriteString("--" + boundary + "\r\n")
		if p.file == "" {
			fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q\r\n", p.name)
			if p.typ != "" {
				fmt.Fprintf(&b, "Content-Type: %s\r\n", p.typ)
			}
			b.WriteString("\r\n" + p.value + "\r\n")
			continue
		}
		typ := p.typ
		if typ == "" {
			typ = mime.TypeByExtension(filepath.Ext(p.file))
		}
		if typ == "" {
			typ = "application/octet-stream"
		}
		fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q; filename=%q\r\nContent-Type: %s\r\n\r\n", p.name, filepath.Base(p.file), typ)
		content, _ := r.readText(p.file, "the file part "+p.name, func(why string) {
			skipped = append(skipped, fmt.Sprintf("-F %s=@%s: %s; the part is sent empty", p.name, p.file, why))
		})
		b.WriteString(content)
		b.WriteString("\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.String(), skipped
}

// origin is a URL's scheme and host.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// commonOrigin is the origin most requests go to (the first on a tie).
func commonOrigin(reqs []*request) string {
	counts := map[string]int{}
	best := ""
	for _, r := range reqs {
		o := origin(r.url)
		counts[o]++
		if best == "" || counts[o] > counts[best] {
			best = o
		}
	}
	return best
}

// sanitize keeps a name's letters, digits, '.', '_' and '-'.
func sanitize(s string) string { return strings.Trim(importer.NameChars(s), "-") }
