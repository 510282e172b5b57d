// Package har imports a browser recording (HTTP Archive, HAR 1.2) into a
// test: the session's requests in order, static assets left out, the user's
// pauses kept as think times, and values the server handed out (tokens,
// ids) extracted from their response and reused where the browser reused
// them (correlation).
package har

import (
	"fmt"
	"io"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/importer"
)

// Options says what to keep of a recording.
type Options struct {
	KeepStatic bool             // keep images, styles, scripts, fonts and media
	Exclude    []*regexp.Regexp // URLs to leave out
	Hosts      []string         // hosts to keep besides the first request's; "*" keeps every host
	MinThink   time.Duration    // shorter pauses are the browser's, not the user's
	MaxThink   time.Duration    // longer pauses are cut to this
}

// DefaultOptions are the import's defaults.
func DefaultOptions() Options {
	return Options{MinThink: 100 * time.Millisecond, MaxThink: 30 * time.Second}
}

// archive is the part of HAR 1.2 the import reads.
type archive struct {
	Log struct {
		Creator struct{ Name, Version string } `json:"creator"`
		Entries []entry                        `json:"entries"`
	} `json:"log"`
}

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

	url  *url.URL
	end  time.Time
	drop string // why the entry is left out; "" when kept
}

type nameVal struct{ Name, Value string }

type postData struct {
	MimeType string    `json:"mimeType"`
	Text     string    `json:"text"`
	Params   []nameVal `json:"params"`
}

// Import reads a HAR recording from r.
func Import(r io.Reader, name string, opt Options) (*importer.Test, error) {
	var a archive
	if err := decode(r, &a); err != nil {
		return nil, err
	}
	entries := a.Log.Entries
	if len(entries) == 0 {
		return nil, fmt.Errorf("the recording has no requests (log.entries is empty)")
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Started.Before(entries[j].Started) })
	t := &importer.Test{Source: "the HAR recording " + name}
	if a.Log.Creator.Name != "" {
		t.Source += fmt.Sprintf(" (made by %s %s)", a.Log.Creator.Name, a.Log.Creator.Version)
	}
	kept := filter(entries, opt, t)
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

// filter keeps the entries a test should send, counting what it leaves out.
func filter(entries []entry, opt Options, t *importer.Test) []*entry {
	counts := map[string]int{}
	var order []string
	leave := func(why string) {
		if counts[why] == 0 {
			order = append(order, why)
		}
		counts[why]++
	}
	var kept []*entry
	mainHost := ""
	for i := range entries {
		e := &entries[i]
		u, err := url.Parse(e.Request.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			leave("requests that are not http(s)")
			continue
		}
		e.url = u
		e.end = e.Started.Add(time.Duration(e.Time * float64(time.Millisecond)))
		if mainHost == "" && !isStatic(e) {
			mainHost = u.Host
		}
	}
	for i := range entries {
		e := &entries[i]
		switch {
		case e.url == nil:
		case !opt.KeepStatic && isStatic(e):
			leave("static assets (images, styles, scripts, fonts, media; --keep-static keeps them)")
		case excluded(e.url.String(), opt.Exclude):
			leave("requests matching --exclude")
		case e.url.Host != mainHost && !hostKept(e.url.Host, opt.Hosts):
			leave(fmt.Sprintf("requests to %s (--host %s keeps them)", e.url.Host, e.url.Hostname()))
		case e.Response.Status == 0:
			leave("requests the browser did not complete (status 0: blocked, cancelled or failed)")
		default:
			kept = append(kept, e)
		}
	}
	for _, why := range order {
		t.NotConverted = append(t.NotConverted, fmt.Sprintf("%d %s", counts[why], why))
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
// requests (every VU is a fresh visitor) and compression (bodies are read
// for checks and extractions).
var droppedHeaders = map[string]bool{
	"host": true, "content-length": true, "connection": true, "keep-alive": true, "transfer-encoding": true,
	"cookie": true, "if-none-match": true, "if-modified-since": true, "priority": true,
	"upgrade-insecure-requests": true, "accept-encoding": true, "te": true, "pragma": true, "cache-control": true,
}

func keepHeader(name string) bool {
	n := strings.ToLower(name)
	return !strings.HasPrefix(n, ":") && !strings.HasPrefix(n, "sec-") && !droppedHeaders[n]
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
			if keepHeader(h.Name) {
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
	subs := correlate(steps)
	t.Notes = append(t.Notes,
		fmt.Sprintf("%d requests of the recording, in order; pauses of %s or more kept as think times (at most %s).", len(steps), opt.MinThink, opt.MaxThink),
		"Cookies the server set are kept by each VU's cookie jar; values the server handed out and the browser sent back are extracted (extract:) and reused.",
		"Dropped request headers: the browser's own (sec-*, priority, caching, compression) and those loadlens sets.")
	if len(subs) > 0 {
		var vs []string
		for _, c := range subs {
			vs = append(vs, c.name)
		}
		t.Notes = append(t.Notes, "Correlated: "+strings.Join(vs, ", ")+".")
	}
	var flow []importer.Step
	for _, s := range steps {
		if s.think > 0 {
			flow = append(flow, importer.Step{Think: importer.Duration(s.think)})
		}
		st := importer.Step{Method: s.e.Request.Method, Path: templ(s.path, subs, s)}
		if s.e.url.RawQuery != "" {
			st.Name = importer.Lit(strings.SplitN(s.path, "?", 2)[0])
		}
		for _, h := range s.headers {
			st.Headers = append(st.Headers, importer.Header{Name: h.Name, Value: templ(h.Value, subs, s)})
		}
		if s.cookies != "" {
			st.Headers = append(st.Headers, importer.Header{Name: "Cookie", Value: templ(s.cookies, subs, s)})
		}
		if s.hasBody {
			st.Body, st.HasBody = templ(s.body, subs, s), true
		}
		st.Check = []importer.Check{{Status: []int{s.status}}}
		if s.status >= 400 {
			st.ExpectStatus = []int{s.status} // the recording's answer, so not a failure
		}
		st.Extract = s.extract
		flow = append(flow, st)
	}
	t.Headers, flow = importer.HoistHeaders(flow)
	t.Scenarios = []*importer.Scenario{{Name: "session", Load: importer.DefaultLoad(), Flow: flow}}
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
