package plan

import (
	"errors"
	"fmt"
	"math"
	"net/textproto"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// URL mode's defaults.
const (
	DefaultURLDuration = 10 * time.Second // how long the load is held when --duration is not given
	// DefaultURLGracefulStop caps how long requests still running at the
	// end may finish (and no more than the timeout): a file's 30 s would
	// make `--duration 5s` against a stalled target last 35 s.
	DefaultURLGracefulStop = 5 * time.Second
)

// urlScenario names the one scenario of a URL-mode plan.
const urlScenario = "default"

// URLOptions are the flags of URL mode: `loadlens run URL --rate 100 ...`.
type URLOptions struct {
	URL      string        // the target; may use templates, like a test file's paths
	Method   string        // default GET, or POST when a body is given
	Headers  []string      // "Name: value"
	Body     string        // raw request body
	BodyFile string        // read the body from this file instead
	Timeout  time.Duration // request timeout; 0 means the default
	Rate     float64       // open model: iterations per second
	VUs      int           // closed model: virtual users (1 when neither Rate nor VUs is set)
	Duration time.Duration // how long to hold the load; 0 means DefaultURLDuration
	// Iterations, when above 0, runs that many iterations shared by VUs
	// (k6's -i); Duration then bounds them (max_duration) when above 0.
	Iterations int64
	Ramp       time.Duration // ramp up from 0 over this long before the hold
	MaxVUs     int           // open model: VU ceiling; 0 means the default
	Thresholds []string      // "p(95)<500ms", "rate<0.01" or "metric{filter}: expr"
	Name       string        // the run's name; default from the URL's host and path
	Insecure   bool          // skip TLS certificate verification
	// GracefulStop is how long requests running at the end may finish;
	// nil means min(the timeout, DefaultURLGracefulStop).
	GracefulStop *time.Duration
	// ArrivalSlack is the open model's arrival_slack; nil means DefaultArrivalSlack.
	ArrivalSlack *time.Duration
	MaxRedirects *int     // redirects followed per request; nil means DefaultMaxRedirects
	MaxBody      string   // a size like 512KiB: body bytes kept for checks; "" means DefaultMaxBody
	AllowHosts   []string // hosts redirects may lead to besides the URL's
	// Env looks up {{ env.X }} in the URL, headers and body (nil: the
	// process environment). Values are read once and never stored.
	Env func(string) (string, bool)
	// Machine is what the machine running the test offers; the zero value checks nothing.
	Machine Machine
}

// FromURL builds the plan of URL mode. It renders the flags as a test file
// and parses that, so Plan.Source reproduces the run when saved and run
// again. Errors name the flag at fault.
func FromURL(o URLOptions) (*Plan, error) {
	src, err := o.testFile(false)
	if err != nil {
		return nil, err
	}
	p, err := ParseFor(o.Machine, "", src, o.Env)
	if err != nil {
		var es yamldoc.Errors
		if errors.As(err, &es) {
			return nil, o.flagErrors(es)
		}
		return nil, err
	}
	return p, nil
}

// TestFile returns the test file FromURL parses, for a distributed run
// whose agents each parse the test themselves; errors are FromURL's. The
// agents have no --body-file, so its text is written into the test.
func (o URLOptions) TestFile() ([]byte, error) {
	if _, err := FromURL(o); err != nil {
		return nil, err
	}
	return o.testFile(true)
}

// testFile renders the options as a test file, after checking them. A
// --body-file is named by the file (body_file:), or with inline copied
// into it as body:.
func (o *URLOptions) testFile(inline bool) ([]byte, error) {
	var errs yamldoc.Errors
	bad := func(flag, format string, args ...any) {
		errs = append(errs, &yamldoc.Error{Field: flag, Msg: fmt.Sprintf(format, args...)})
	}
	t := urlTest{}
	t.base, t.path = o.checkURL(&errs, bad)
	o.checkLoad(bad)
	t.body, t.bodyFile = o.requestBody(inline, bad)
	t.method = strings.ToUpper(strings.TrimSpace(o.Method))
	switch {
	case t.method == "" && t.body != "":
		t.method = "POST"
	case t.method == "":
		t.method = "GET"
	case !yamldoc.IsToken(t.method):
		bad("--method", "bad HTTP method %q", o.Method)
	}
	t.headers = o.headerLines(bad)
	if t.body != "" && !t.headers.has("Content-Type") && looksLikeJSON(t.body) {
		t.headers = append(t.headers, headerLine{"Content-Type", jsonContentType})
	}
	t.thresholds = o.thresholdKeys(bad)
	if len(errs) > 0 {
		return nil, errs
	}
	return o.write(&t), nil
}

// urlTest is what testFile checked of the options, to write as a test.
type urlTest struct {
	base, path     string
	method         string
	body, bodyFile string // bodyFile: the --body-file's absolute path, which the test file names
	headers        headerList
	thresholds     []thresholdGroup
}

// checkURL splits the URL into the base URL and the path (its spaces
// escaped), reporting a URL that is not http(s), a bad port or a control
// character.
func (o *URLOptions) checkURL(errs *yamldoc.Errors, bad func(string, string, ...any)) (base, path string) {
	base, path, ok := splitURL(o.URL)
	if !ok {
		bad("URL", "bad URL %q: expected http:// or https:// and a host, like http://127.0.0.1:8080/path", Redact(o.URL))
	} else if u, err := url.Parse(base); err == nil && badPort(u) != "" {
		bad("URL", "bad URL %q: %s", Redact(o.URL), badPort(u))
	} else if at, r, bad := controlChar(o.URL); bad {
		*errs = append(*errs, &yamldoc.Error{Field: "URL", Msg: fmt.Sprintf("the URL has a control character %U at byte %d; percent-encode it (%%%02X)", r, at, r)})
	}
	return base, escapeSpaces(path)
}

// checkLoad reports load flags that are out of range or exclude each other.
func (o *URLOptions) checkLoad(bad func(string, string, ...any)) {
	switch {
	case o.Rate < 0 || math.IsNaN(o.Rate) || math.IsInf(o.Rate, 0):
		bad("--rate", "must be a positive number of iterations per second, got %v", o.Rate)
	case o.VUs < 0:
		bad("--vus", "must be a positive number of VUs, got %d", o.VUs)
	case o.Rate > 0 && o.VUs > 0:
		bad("--rate", "--rate (an open model: arrivals per second) and --vus (a closed model) exclude each other")
	case o.MaxVUs < 0:
		bad("--max-vus", "must not be negative, got %d", o.MaxVUs)
	case o.MaxVUs > 0 && o.Rate == 0:
		bad("--max-vus", "applies only with --rate; with --vus the VU count is fixed")
	case o.ArrivalSlack != nil && o.Rate == 0:
		bad("--arrival-slack", "applies only with --rate; with --vus each VU starts when its last iteration ended")
	case o.ArrivalSlack != nil && (*o.ArrivalSlack < 0 || *o.ArrivalSlack > MaxArrivalSlack):
		bad("--arrival-slack", "must be between 0s and %s, got %s", MaxArrivalSlack, *o.ArrivalSlack)
	}
	durations := map[string]time.Duration{"--duration": o.Duration, "--ramp": o.Ramp, "--timeout": o.Timeout}
	if o.GracefulStop != nil {
		durations["--graceful-stop"] = *o.GracefulStop
	}
	for flag, d := range durations {
		if d < 0 {
			bad(flag, "must not be negative, got %s", d)
		}
	}
	if o.MaxRedirects != nil && *o.MaxRedirects < 0 {
		bad("--max-redirects", "must not be negative, got %d (0 follows no redirect)", *o.MaxRedirects)
	}
}

// requestBody returns the request's body, from --body or --body-file, and
// the --body-file's absolute path when the test names the file.
func (o *URLOptions) requestBody(inline bool, bad func(string, string, ...any)) (body, bodyFile string) {
	body = o.Body
	if o.BodyFile == "" {
		if len(body) > maxURLBody {
			bad("--body", "the body is %s; URL mode keeps it in the run's test file, so it may be at most %s (a larger body: --body-file)", bytesText(int64(len(body))), bytesText(maxURLBody))
		}
		if !utf8.ValidString(body) {
			bad("--body", "the body must be UTF-8 text")
		}
		return body, ""
	}
	if o.Body != "" {
		bad("--body-file", "give --body or --body-file, not both")
	}
	b, err := ReadBodyFile(o.BodyFile)
	switch {
	case err != nil:
		bad("--body-file", "%v", err)
	case inline && (!utf8.Valid(b) || len(quoteYAML(string(b))) > maxURLBody):
		bad("--body-file", "%s is %s; a distributed run sends it inside the test: at most %s of UTF-8 text",
			o.BodyFile, bytesText(int64(len(b))), bytesText(maxURLBody))
	case inline:
		body = string(b)
	case len(b) == 0: // an empty file is no body, as an empty --body is
	default:
		if bodyFile, err = filepath.Abs(o.BodyFile); err != nil {
			bad("--body-file", "%v", err)
		}
		body = string(b) // for the method and the Content-Type; the file is read again when the test is parsed
	}
	return body, bodyFile
}

// write renders the checked options as a test file.
func (o *URLOptions) write(t *urlTest) []byte {
	name := o.Name
	if name == "" {
		host, _, _ := cutUserinfo(t.base) // a run is never named by its credentials
		name = sanitizeName(strings.TrimPrefix(strings.TrimPrefix(host, "http://"), "https://") + pathWithoutQuery(t.path))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# loadlens run URL flags, as a test file\nname: %s\nbase_url: %s\n", quoteYAML(name), quoteYAML(t.base))
	if o.Timeout > 0 {
		fmt.Fprintf(&b, "timeout: %s\n", o.Timeout)
	}
	if o.Insecure {
		b.WriteString("insecure_skip_tls_verify: true\n")
	}
	if o.MaxRedirects != nil {
		fmt.Fprintf(&b, "redirects: %d\n", *o.MaxRedirects)
	}
	if o.MaxBody != "" {
		fmt.Fprintf(&b, "max_body: %s\n", quoteYAML(o.MaxBody))
	}
	if len(o.AllowHosts) > 0 {
		b.WriteString("allow_hosts:\n")
		for _, h := range o.AllowHosts {
			fmt.Fprintf(&b, "  - %s\n", quoteYAML(h))
		}
	}
	writeURLHeadersAndThresholds(&b, t)
	fmt.Fprintf(&b, "scenarios:\n  %s:\n", urlScenario)
	o.writeLoad(&b)
	fmt.Fprintf(&b, "    graceful_stop: %s\n", o.gracefulStop())
	fmt.Fprintf(&b, "    flow:\n      - method: %s\n        path: %s\n", quoteYAML(t.method), quoteYAML(t.path))
	switch {
	case t.bodyFile != "":
		fmt.Fprintf(&b, "        body_file: %s\n", quoteYAML(t.bodyFile))
	case t.body != "":
		fmt.Fprintf(&b, "        body: %s\n", quoteYAML(t.body))
	}
	return []byte(b.String())
}

// writeURLHeadersAndThresholds writes the test's headers: and thresholds:.
func writeURLHeadersAndThresholds(b *strings.Builder, t *urlTest) {
	if len(t.headers) > 0 {
		b.WriteString("headers:\n")
		for _, h := range t.headers {
			fmt.Fprintf(b, "  %s: %s\n", quoteYAML(h.name), quoteYAML(h.value))
		}
	}
	if len(t.thresholds) > 0 {
		b.WriteString("thresholds:\n")
		for _, th := range t.thresholds {
			fmt.Fprintf(b, "  %s:\n", quoteYAML(th.key))
			for _, e := range th.exprs {
				fmt.Fprintf(b, "    - %s\n", quoteYAML(e))
			}
		}
	}
}

// gracefulStop returns how long requests running at the end may finish.
func (o *URLOptions) gracefulStop() time.Duration {
	if o.GracefulStop != nil {
		return *o.GracefulStop
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return min(timeout, DefaultURLGracefulStop)
}

// maxURLBody bounds a URL-mode body, which goes into the rendered test
// file and so must leave it room under MaxFileSize.
const maxURLBody = yamldoc.MaxFileSize - 64<<10

// controlChar finds a control character in s, which a URL may not hold.
func controlChar(s string) (int, rune, bool) {
	for i, r := range s {
		if r < 0x20 || r == 0x7f {
			return i, r, true
		}
	}
	return 0, 0, false
}

// escapeSpaces percent-encodes the spaces of a URL path outside {{ }},
// as browsers and curl do, instead of sending a request line no server
// can read.
func escapeSpaces(path string) string {
	if !strings.Contains(path, " ") {
		return path
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(path); i++ {
		switch {
		case strings.HasPrefix(path[i:], "{{"):
			depth++
			b.WriteString("{{")
			i++
		case strings.HasPrefix(path[i:], "}}") && depth > 0:
			depth--
			b.WriteString("}}")
			i++
		case path[i] == ' ' && depth == 0:
			b.WriteString("%20")
		default:
			b.WriteByte(path[i])
		}
	}
	return b.String()
}

// writeLoad writes the scenario's load model keys.
func (o *URLOptions) writeLoad(b *strings.Builder) {
	if o.Iterations > 0 {
		fmt.Fprintf(b, "    model: iterations\n    iterations: %d\n    vus: %d\n", o.Iterations, min(int64(max(o.VUs, 1)), o.Iterations))
		if o.Duration > 0 {
			fmt.Fprintf(b, "    max_duration: %s\n", o.Duration)
		}
		return
	}
	hold := o.Duration
	if hold == 0 {
		hold = DefaultURLDuration
	}
	model, level, start, target := "vus", "vus", "start_vus", strconv.Itoa(max(o.VUs, 1))
	if o.Rate > 0 {
		model, level, start, target = "arrival-rate", "rate", "start_rate", strconv.FormatFloat(o.Rate, 'f', -1, 64)
	}
	fmt.Fprintf(b, "    model: %s\n", model)
	if o.Ramp > 0 {
		fmt.Fprintf(b, "    %s: 0\n    stages:\n", start)
		fmt.Fprintf(b, "      - {duration: %s, target: %s}\n", o.Ramp, target)
		fmt.Fprintf(b, "      - {duration: %s, target: %s}\n", hold, target)
	} else {
		fmt.Fprintf(b, "    %s: %s\n    duration: %s\n", level, target, hold)
	}
	if o.MaxVUs > 0 {
		fmt.Fprintf(b, "    max_vus: %d\n", o.MaxVUs)
	}
	if o.ArrivalSlack != nil && o.Rate > 0 {
		fmt.Fprintf(b, "    arrival_slack: %s\n", *o.ArrivalSlack)
	}
}

// splitURL splits an absolute http(s) URL into its base (scheme and host)
// and its path with the query, which is "/" at least.
func splitURL(raw string) (base, path string, ok bool) {
	scheme, abs := urlScheme(raw)
	if !abs || (scheme != "http" && scheme != "https") {
		return "", "", false
	}
	rest := raw[len(scheme)+3:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	i := strings.IndexAny(rest, "/?")
	if i < 0 {
		i = len(rest)
	}
	base, path = raw[:len(scheme)+3+i], rest[i:]
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", "", false
	}
	return base, path, true
}

// headerLine is one -H flag, split.
type headerLine struct{ name, value string }

// headerList is the -H flags in order.
type headerList []headerLine

// has reports whether a header is set, ignoring case.
func (hs headerList) has(name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.name, name) {
			return true
		}
	}
	return false
}

// headerLines splits the -H flags.
func (o *URLOptions) headerLines(bad func(string, string, ...any)) headerList {
	var out headerList
	for _, h := range o.Headers {
		name, value, found := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !found || !yamldoc.IsToken(name) {
			bad("-H", "bad header %q: expected \"Name: value\"", h)
			continue
		}
		out = append(out, headerLine{textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value)})
	}
	return out
}

// thresholdGroup is the expressions of one metric key, in flag order.
type thresholdGroup struct {
	key   string
	exprs []string
}

// thresholdKeys groups the --threshold flags by metric key. A bare
// expression applies to http_req_duration (p(N), avg, min, max, med) or to
// http_req_failed (rate); otherwise the flag is "metric{filter}: expr".
func (o *URLOptions) thresholdKeys(bad func(string, string, ...any)) []thresholdGroup {
	var out []thresholdGroup
	for _, t := range o.Thresholds {
		key, expr, ok := splitThreshold(t)
		if !ok {
			bad("--threshold", "bad threshold %q: expected an expression like \"p(95)<500ms\" or \"metric{filter}: expression\"", t)
			continue
		}
		i := 0
		for i < len(out) && out[i].key != key {
			i++
		}
		if i == len(out) {
			out = append(out, thresholdGroup{key: key})
		}
		out[i].exprs = append(out[i].exprs, expr)
	}
	return out
}

// splitThreshold splits a --threshold flag into metric key and expression.
func splitThreshold(s string) (key, expr string, ok bool) {
	s = strings.TrimSpace(s)
	for _, agg := range []string{"p(", "avg", "min", "max", "med"} {
		if strings.HasPrefix(s, agg) {
			return "http_req_duration", s, true
		}
	}
	if strings.HasPrefix(s, "rate") {
		return "http_req_failed", s, true
	}
	colon := strings.IndexByte(s, ':')
	if brace := strings.IndexByte(s, '{'); brace >= 0 && (colon < 0 || brace < colon) {
		end := closingBrace(s, brace)
		if end < 0 {
			return "", "", false
		}
		colon = strings.IndexByte(s[end:], ':')
		if colon >= 0 {
			colon += end
		}
	}
	if colon <= 0 {
		return "", "", false
	}
	key, expr = strings.TrimSpace(s[:colon]), strings.TrimSpace(s[colon+1:])
	return key, expr, key != "" && expr != ""
}

// closingBrace returns the index of the } closing the { at open, skipping
// quoted values, or -1.
func closingBrace(s string, open int) int {
	var quote byte
	for i := open + 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == '}':
			return i
		}
	}
	return -1
}

// looksLikeJSON guesses whether a raw body is JSON, to set its Content-Type.
func looksLikeJSON(body string) bool {
	t := strings.TrimSpace(body)
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// quoteYAML returns s as a double-quoted YAML string.
func quoteYAML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// flagErrors turns errors in the rendered test file into errors about the
// flags they came from.
func (o *URLOptions) flagErrors(es yamldoc.Errors) yamldoc.Errors {
	level := "--vus"
	if o.Rate > 0 {
		level = "--rate"
	}
	out := make(yamldoc.Errors, 0, len(es))
	for _, e := range es {
		out = append(out, &yamldoc.Error{Field: flagOf(e.Field, level), Msg: e.Msg})
	}
	return out
}

// flagOf names the flag behind a field of the rendered test file; level
// is the flag that sets the load's level (--rate or --vus).
func flagOf(field, level string) string {
	step := "scenarios." + urlScenario + ".flow[0]."
	scenario := "scenarios." + urlScenario + "."
	switch {
	case field == "base_url", field == step+"path", field == "":
		return "URL"
	case field == step+"method":
		return "--method"
	case field == step+"body":
		return "--body"
	case field == step+"body_file":
		return "--body-file"
	case strings.HasPrefix(field, "headers"):
		return "-H"
	case strings.HasPrefix(field, "thresholds"):
		return "--threshold"
	case field == "name", field == "timeout":
		return "--" + field
	case strings.HasPrefix(field, scenario+"rate"), strings.HasPrefix(field, scenario+"vus"):
		return "--" + strings.TrimPrefix(field, scenario)
	case strings.HasPrefix(field, scenario+"max_vus"):
		return "--max-vus"
	case field == scenario+"duration", field == scenario+"stages[1].duration": // the hold, after --ramp
		return "--duration"
	case field == scenario+"stages[0].duration":
		return "--ramp"
	case strings.HasPrefix(field, scenario+"stages"), strings.HasPrefix(field, scenario+"start_"):
		return level
	case field == "redirects":
		return "--max-redirects"
	case field == "max_body":
		return "--max-body"
	case strings.HasPrefix(field, "allow_hosts"):
		return "--allow-host"
	case strings.HasPrefix(field, scenario+"graceful_stop"):
		return "--graceful-stop"
	}
	return field
}
