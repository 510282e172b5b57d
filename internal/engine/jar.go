package engine

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
)

// cookieJar keeps a VU's cookies, as k6 does: set by responses, sent with
// later requests as RFC 6265 says (Domain, Path, Expires, Max-Age, Secure,
// host-only), and emptied at each iteration's start. net/http/cookiejar
// does the matching, without a public suffix list (as k6): a load test
// talks to hosts it names, and golang.org/x/net is not worth a dependency
// for it. The jar exists only once a response set a cookie, so a test
// without cookies pays nothing.
type cookieJar struct {
	jar *cookiejar.Jar
}

// reset forgets every cookie.
func (j *cookieJar) reset() { j.jar = nil }

// empty reports whether no response set a cookie since the last reset.
func (j *cookieJar) empty() bool { return j.jar == nil }

// header returns the Cookie header value for u ("" for none).
func (j *cookieJar) header(u *url.URL) string {
	if j.jar == nil {
		return ""
	}
	var b strings.Builder
	for i, c := range j.jar.Cookies(u) {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.Name)
		b.WriteByte('=')
		if c.Quoted {
			b.WriteByte('"')
		}
		b.WriteString(c.Value)
		if c.Quoted {
			b.WriteByte('"')
		}
	}
	return b.String()
}

// store keeps the cookies of a response to u's Set-Cookie headers; one
// that is expired (Max-Age ≤ 0, or Expires in the past) removes its match.
func (j *cookieJar) store(u *url.URL, setCookies []string) {
	cookies := make([]*http.Cookie, 0, len(setCookies))
	for _, line := range setCookies {
		if c, err := http.ParseSetCookie(line); err == nil {
			cookies = append(cookies, c)
		}
	}
	if len(cookies) == 0 {
		return
	}
	if j.jar == nil {
		j.jar, _ = cookiejar.New(nil) // never fails without options
	}
	j.jar.SetCookies(u, cookies)
}
