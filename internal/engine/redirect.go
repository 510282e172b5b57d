package engine

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// chain is the redirect state of one request: parsed URLs, made only when
// a cookie or a redirect needs them, so a plain request parses nothing.
type chain struct {
	initial *url.URL // the step's URL
	cur     *url.URL // the current hop's URL
	own     bool     // the current hop is on the step's own host: its headers go along
}

// current returns the parsed URL of the hop at u.
func (c *chain) current(u []byte) *url.URL {
	if c.cur == nil {
		c.cur, _ = url.Parse(string(u)) // nil on error: the client reports the bad URL
	}
	return c.cur
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// redirectMethod returns the next hop's method and whether the body goes
// along, as net/http decides: 301, 302 and 303 continue as GET (HEAD stays
// HEAD) without the body; 307 and 308 repeat the request as it was.
func redirectMethod(status int, method string) (string, bool) {
	if status == 307 || status == 308 {
		return method, true
	}
	if method != "GET" && method != "HEAD" {
		method = "GET"
	}
	return method, false
}

// follow points q at the response's Location, or returns why the redirect
// is a failure: a Location that is not http(s), a host the test does not
// name, a loop, or more redirects than the step allows. sentCookie is the
// jar's Cookie value the hop carried, part of what makes two hops the same.
func (v *vu) follow(r *plan.Request, q *hop, ch *chain, sentCookie string) string {
	h := v.http
	cur := ch.current(q.url)
	if cur == nil {
		return "redirect from a URL that does not parse"
	}
	if ch.initial == nil {
		ch.initial = cur
		h.seen = h.seen[:0]
	}
	ref, err := url.Parse(h.resp.headerValues("Location")[0])
	if err != nil {
		return "redirect to a Location that does not parse"
	}
	next := cur.ResolveReference(ref)
	next.Fragment, next.RawFragment = "", ""
	method, withBody := redirectMethod(h.resp.status, q.method)
	h.seen = append(h.seen, hopKey(q.method, cur.String(), sentCookie))
	nextURL := next.String()
	switch {
	case next.Scheme != "http" && next.Scheme != "https":
		return fmt.Sprintf("redirect to an unsupported scheme %q", next.Scheme)
	case !v.sc.e.allowedHost(ch.initial, next):
		return "redirect to " + next.Host + " refused: the test does not name that host; add it to allow_hosts"
	case slices.Contains(h.seen, hopKey(method, nextURL, v.jar.header(next))):
		return fmt.Sprintf("redirect loop: %d back to %s", h.resp.status, shortPath(next))
	case int(h.sample.Redirects) >= r.MaxRedirects:
		return fmt.Sprintf("more than %d redirects", r.MaxRedirects)
	}
	q.method = method
	if !withBody {
		q.body = nil
	}
	ch.own = ownHost(ch.initial, next)
	if ref.IsAbs() || !ch.own {
		q.host = nil // a custom Host survives relative redirects only, as in net/http
	}
	if !ch.own {
		q.agent = nil
	}
	h.url = append(h.url[:0], nextURL...)
	q.url = h.url
	ch.cur = next
	return ""
}

// hopKey identifies a hop for loop detection: the same request with the
// same cookies, sent twice in one chain, would be answered the same way.
func hopKey(method, u, cookie string) string { return method + " " + u + "\x00" + cookie }

// shortPath names a URL in a message by its path, bounded.
func shortPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if len(p) > 60 {
		p = p[:60] + "…"
	}
	return p
}

// ownHost reports whether next is the step's own host or one of its
// subdomains, where net/http lets credentials follow a redirect.
func ownHost(initial, next *url.URL) bool {
	sub, parent := strings.ToLower(next.Hostname()), strings.ToLower(initial.Hostname())
	if sub == parent {
		return true
	}
	if strings.ContainsAny(sub, ":%") { // an IPv6 address is nobody's subdomain
		return false
	}
	return strings.HasSuffix(sub, "."+parent)
}

// allowedHost reports whether a redirect may send load to next: a host of
// the step's own name (any port, so http→https works), or one the plan
// allows (every host the test names, and its allow_hosts).
func (e *Engine) allowedHost(initial, next *url.URL) bool {
	return strings.EqualFold(next.Hostname(), initial.Hostname()) || e.plan.HostAllowed(next)
}
