// Package har imports a browser recording (HTTP Archive, HAR 1.2) into a
// test: the session's requests in order, static assets left out, the user's
// pauses kept as think times, and values the server handed out (tokens,
// ids) extracted from their response and reused where the browser reused
// them (correlation).
package har

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/units"
)

// Options says what to keep of a recording.
type Options struct {
	KeepStatic bool             // keep images, styles, scripts, fonts and media
	Exclude    []*regexp.Regexp // URLs to leave out
	Hosts      []string         // hosts to keep besides the first request's; "*" keeps every host
	MinThink   time.Duration    // shorter pauses are the browser's, not the user's
	MaxThink   time.Duration    // longer pauses are cut to this
	MaxEntries int              // requests read (static assets left out aside); the rest are counted and left out
	MaxBytes   int64            // bytes of the recording read; entries past them are left out
}

// DefaultMaxEntries is how many requests an import reads by default: a
// session's few hundred, with room to spare; a test file holds about 5,000
// steps (50,000 YAML entries).
const DefaultMaxEntries = 2000

// DefaultOptions are the import's defaults.
func DefaultOptions() Options {
	return Options{MinThink: 100 * time.Millisecond, MaxThink: 30 * time.Second, MaxEntries: DefaultMaxEntries, MaxBytes: MaxRecording}
}

// entry is the part of a HAR 1.2 entry the import reads.
type entry struct {
	Started      time.Time `json:"startedDateTime"`
	Time         float64   `json:"time"` // ms
	ResourceType string    `json:"_resourceType"`
	Request      struct {
		Method   string    `json:"method"`
		URL      string    `json:"url"`
		Headers  []nameVal `json:"headers"`
		PostData *postData `json:"postData"`
		Cookies  []nameVal `json:"cookies"`
	} `json:"request"`
	Response struct {
		Status      int       `json:"status"`
		Headers     []nameVal `json:"headers"`
		RedirectURL string    `json:"redirectURL"`
		Content     struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`

	url    *url.URL
	end    time.Time
	static bool   // an image, a style, a script, a font, media
	text   string // the response's body as text, when kept to find values in (at most maxKeptResponse)
}

type nameVal struct{ Name, Value string }

type postData struct {
	MimeType string    `json:"mimeType"`
	Text     string    `json:"text"`
	Params   []nameVal `json:"params"`
}

// Import reads a HAR recording from r, entry by entry: static assets are
// left out as they are read, and at most opt.MaxEntries requests (and
// MaxRecording bytes) are read, the rest counted and said.
func Import(r io.Reader, name string, opt Options) (*importer.Test, error) {
	if opt.MaxEntries <= 0 {
		opt.MaxEntries = DefaultMaxEntries
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = MaxRecording
	}
	rd := &reading{opt: opt, lv: &leaver{}}
	var creator struct{ Name, Version string }
	err := newDecoder(r, opt.MaxBytes).read(&creator, rd.take)
	if err != nil && !errors.Is(err, errCut) {
		return nil, err
	}
	if rd.total == 0 && err == nil {
		return nil, fmt.Errorf("the recording has no requests (log.entries is empty)")
	}
	entries := rd.kept
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Started.Before(entries[j].Started) })
	t := &importer.Test{Source: "the HAR recording " + name}
	if creator.Name != "" {
		t.Source += fmt.Sprintf(" (made by %s %s)", creator.Name, creator.Version)
	}
	kept := filter(entries, opt, rd.lv)
	t.NotConverted = append(rd.lv.notes(), rd.cuts(err)...)
	if len(kept) == 0 {
		return nil, fmt.Errorf("every request of the recording was left out (%s); see --keep-static and --host", strings.Join(t.NotConverted, "; "))
	}
	build(t, kept, opt)
	return t, nil
}

// staticTypes are Chrome's resource types of static assets.
var staticTypes = map[string]bool{"image": true, "stylesheet": true, "script": true, "font": true, "media": true, "manifest": true, "texttrack": true}

// staticExt are file extensions of static assets.
var staticExt = regexp.MustCompile(`(?i)\.(css|js|mjs|map|png|jpe?g|gif|webp|avif|svg|ico|bmp|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|wav)$`)

// isStatic reports whether an entry fetched a static asset.
func isStatic(e *entry) bool {
	if staticTypes[e.ResourceType] || staticExt.MatchString(e.url.Path) {
		return true
	}
	mt := strings.ToLower(e.Response.Content.MimeType)
	for _, p := range []string{"image/", "font/", "text/css", "javascript", "video/", "audio/"} {
		if strings.Contains(mt, p) {
			return true
		}
	}
	return false
}

// filter keeps the entries a test should send, in time order, counting
// what it leaves out.
func filter(entries []*entry, opt Options, lv *leaver) []*entry {
	mainHost := ""
	for _, e := range entries {
		if !e.static {
			mainHost = e.url.Host
			break
		}
	}
	var kept []*entry
	for _, e := range entries {
		switch {
		case excluded(e.url.String(), opt.Exclude):
			lv.leave("request matching --exclude", "requests matching --exclude")
		case e.url.Host != mainHost && !hostKept(e.url.Host, opt.Hosts):
			keeps := " (--host " + e.url.Hostname() + " keeps them)"
			lv.leave("request to "+e.url.Host+keeps, "requests to "+e.url.Host+keeps)
		case e.Response.Status == 0:
			lv.leave("request the browser did not complete (status 0: blocked, cancelled or failed)",
				"requests the browser did not complete (status 0: blocked, cancelled or failed)")
		default:
			kept = append(kept, e)
		}
	}
	return kept
}

func excluded(u string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if re.MatchString(u) {
			return true
		}
	}
	return false
}

func hostKept(host string, hosts []string) bool {
	for _, h := range hosts {
		if h == "*" || h == host || h == strings.Split(host, ":")[0] {
			return true
		}
	}
	return false
}

// droppedHeaders are request headers loadlens sets itself, the browser's
// own bookkeeping, and headers that would change the answers: conditional
// requests (every VU is a fresh visitor; but see conditional) and compression (bodies are read
// for checks and extractions).
var droppedHeaders = map[string]bool{
	"host": true, "content-length": true, "connection": true, "keep-alive": true, "transfer-encoding": true,
	"cookie": true, "if-none-match": true, "if-modified-since": true, "priority": true,
	"upgrade-insecure-requests": true, "accept-encoding": true, "te": true, "pragma": true, "cache-control": true,
}

// conditional reports whether a header makes a request conditional: a
// recorded 304 is replayed with it, so that its check (304) holds.
func conditional(name string) bool {
	n := strings.ToLower(name)
	return n == "if-none-match" || n == "if-modified-since"
}

func keepHeader(name string) bool {
	n := strings.ToLower(name)
	return !strings.HasPrefix(n, ":") && !strings.HasPrefix(n, "sec-") && !droppedHeaders[n]
}

// withBodyType adds the body's Content-Type from postData.mimeType when the
// recorded headers have none (HAR writers may keep it there alone): a
// server reads a JSON body without it as nothing, or refuses it (415).
func withBodyType(hs []importer.Header, pd *postData) []importer.Header {
	for _, h := range hs {
		if strings.EqualFold(h.Name, "Content-Type") {
			return hs
		}
	}
	mt := strings.TrimSpace(pd.MimeType)
	if pd.Text == "" && len(pd.Params) > 0 {
		mt = "application/x-www-form-urlencoded" // the body written from params is urlencoded whatever the recording's type (multipart)
	}
	if mt == "" {
		return hs
	}
	return append(hs, importer.Header{Name: "Content-Type", Value: mt})
}

// step is an entry on its way to a test step: its texts before correlation.
type step struct {
	idx     int
	e       *entry // the request
	resp    *entry // the answer: e's, or the last of the redirects it was led through
	path    string // path and query as sent
	headers []importer.Header
	body    string
	hasBody bool
	cookies string // cookies no earlier response set
	status  int    // the final status, after redirects the browser followed
	think   time.Duration
	extract []importer.Extract
}

func build(t *importer.Test, kept []*entry, opt Options) {
	origin := kept[0].url.Scheme + "://" + kept[0].url.Host
	t.BaseURL = `{{ env("BASE_URL", "` + importer.Lit(origin) + `") }}`
	t.Name = "har-" + strings.NewReplacer(":", "-", ".", "-").Replace(kept[0].url.Host)
	steps := stepsOf(t, kept, opt, origin)
	corr := correlate(steps)
	t.Notes = append(t.Notes,
		fmt.Sprintf("%s of the recording, in order; pauses of %s or more kept as think times (at most %s).",
			units.CountOf(int64(len(steps)), "request", "requests"), opt.MinThink, opt.MaxThink),
		"Cookies the server set are kept by each VU's cookie jar; values the server handed out and the browser sent back are extracted (extract:) and reused.",
		"Dropped request headers: the browser's own (sec-*, priority, caching, compression) and those loadlens sets.")
	if len(corr.subs) > 0 {
		var vs []string
		for _, c := range corr.subs {
			vs = append(vs, c.name)
		}
		t.Notes = append(t.Notes, "Correlated: "+strings.Join(vs, ", ")+".")
	}
	if corr.stopped >= 0 {
		t.NotConverted = append(t.NotConverted, fmt.Sprintf("values sent from request %s on: looking for them took too long (the recording's values are crafted, or too alike); they are not correlated",
			units.Count(int64(corr.stopped+1))))
	}
	var flow []importer.Step
	t.Headers, flow = importer.HoistHeaders(flowOf(steps, corr))
	t.Scenarios = []*importer.Scenario{{Name: "session", Load: importer.DefaultLoad(), Flow: flow}}
}

// stepsOf turns the kept entries into steps: a redirect the browser
// followed and its target are one, with the pause before each.
func stepsOf(t *importer.Test, kept []*entry, opt Options, origin string) []*step {
	var steps []*step
	setCookies := map[string]bool{}
	var prevEnd time.Time
	for i := 0; i < len(kept); i++ {
		e := kept[i]
		s := &step{idx: len(steps), e: e, resp: e, status: e.Response.Status}
		// A redirect the browser followed is one request in loadlens, which follows it too.
		for i+1 < len(kept) && isRedirect(kept[i].Response.Status) && follows(kept[i], kept[i+1]) {
			i++
			s.resp, s.status = kept[i], kept[i].Response.Status
		}
		if !prevEnd.IsZero() {
			if gap := e.Started.Sub(prevEnd); gap >= opt.MinThink {
				s.think = min(gap, opt.MaxThink)
			}
		}
		if kept[i].end.After(prevEnd) {
			prevEnd = kept[i].end
		}
		s.path = e.url.EscapedPath()
		if e.url.RawQuery != "" {
			s.path += "?" + e.url.RawQuery
		}
		if o := e.url.Scheme + "://" + e.url.Host; o != origin {
			s.path = o + s.path
		}
		for _, h := range e.Request.Headers {
			if keepHeader(h.Name) || e.Response.Status == 304 && conditional(h.Name) {
				s.headers = append(s.headers, importer.Header{Name: h.Name, Value: h.Value})
			}
		}
		var own []string
		for _, c := range cookiePairs(e) {
			if !setCookies[c[0]] {
				own = append(own, c[0]+"="+c[1])
			}
		}
		s.cookies = strings.Join(own, "; ")
		if pd := e.Request.PostData; pd != nil && utf8.ValidString(pd.Text) {
			s.body, s.hasBody = pd.Text, true
			if pd.Text == "" && len(pd.Params) > 0 {
				vals := url.Values{}
				for _, p := range pd.Params {
					vals.Add(p.Name, p.Value)
				}
				s.body = vals.Encode()
			}
			s.headers = withBodyType(s.headers, pd)
		} else if pd != nil {
			t.NotConverted = append(t.NotConverted, fmt.Sprintf("the binary body of %s %s (sent empty)", e.Request.Method, e.url.Path))
		}
		for _, h := range append(e.Response.Headers, kept[i].Response.Headers...) {
			if strings.EqualFold(h.Name, "Set-Cookie") {
				if name, _, ok := strings.Cut(h.Value, "="); ok {
					setCookies[strings.TrimSpace(name)] = true
				}
			}
		}
		steps = append(steps, s)
	}
	return steps
}

// flowOf writes the steps as the test's flow, the values correlated sent
// as their variables.
func flowOf(steps []*step, corr *correlation) []importer.Step {
	var flow []importer.Step
	for _, s := range steps {
		if s.think > 0 {
			flow = append(flow, importer.Step{Think: importer.Duration(s.think)})
		}
		st := importer.Step{Method: s.e.Request.Method, Path: corr.templ(s.path, s)}
		if s.e.url.RawQuery != "" {
			st.Name = importer.Lit(strings.SplitN(s.path, "?", 2)[0])
		}
		for _, h := range s.headers {
			st.Headers = append(st.Headers, importer.Header{Name: h.Name, Value: corr.templ(h.Value, s)})
		}
		if s.cookies != "" {
			st.Headers = append(st.Headers, importer.Header{Name: "Cookie", Value: corr.templ(s.cookies, s)})
		}
		if s.hasBody {
			st.Body, st.HasBody = corr.templ(s.body, s), true
		}
		st.Check = []importer.Check{{Status: []int{s.status}}}
		if s.status >= 400 {
			st.ExpectStatus = []int{s.status} // the recording's answer, so not a failure
		}
		st.Extract = s.extract
		flow = append(flow, st)
	}
	return flow
}

func isRedirect(status int) bool {
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308
}

// follows reports whether next is the request that e's redirect led to.
func follows(e, next *entry) bool {
	loc := e.Response.RedirectURL
	if loc == "" {
		for _, h := range e.Response.Headers {
			if strings.EqualFold(h.Name, "Location") {
				loc = h.Value
			}
		}
	}
	target, err := e.url.Parse(loc)
	return loc != "" && err == nil && target.String() == next.url.String()
}

// cookiePairs returns the cookies a request sent.
func cookiePairs(e *entry) [][2]string {
	var out [][2]string
	if len(e.Request.Cookies) > 0 {
		for _, c := range e.Request.Cookies {
			out = append(out, [2]string{c.Name, c.Value})
		}
		return out
	}
	for _, h := range e.Request.Headers {
		if strings.EqualFold(h.Name, "Cookie") {
			for _, part := range strings.Split(h.Value, ";") {
				if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
					out = append(out, [2]string{k, v})
				}
			}
		}
	}
	return out
}
