package engine

import (
	"bytes"
	"strconv"
	"strings"
)

// cookieJar keeps a VU's cookies, as k6 does: set by responses, sent with
// later requests to the same host, and emptied at each iteration's start.
// It keys cookies by host name only and ignores Domain, Path and Secure: a
// load test talks to the hosts it names, and a session cookie is what
// matters.
type cookieJar struct {
	hosts []jarHost // a VU talks to few hosts
}

type jarHost struct {
	host    string
	cookies []cookie
}

type cookie struct{ name, value string }

// reset forgets every cookie, keeping the storage.
func (j *cookieJar) reset() {
	for i := range j.hosts {
		j.hosts[i].cookies = j.hosts[i].cookies[:0]
	}
}

// empty reports whether no cookie is kept, the common case, checked first
// so that a test without cookies pays nothing.
func (j *cookieJar) empty() bool {
	for i := range j.hosts {
		if len(j.hosts[i].cookies) > 0 {
			return false
		}
	}
	return true
}

func (j *cookieJar) find(host []byte) *jarHost {
	for i := range j.hosts {
		if j.hosts[i].host == string(host) {
			return &j.hosts[i]
		}
	}
	return nil
}

// appendHeader appends "Cookie: a=1; b=2\r\n" for url's host, if it has cookies.
func (j *cookieJar) appendHeader(dst, url []byte) []byte {
	if j.empty() {
		return dst
	}
	h := j.find(urlHost(url))
	if h == nil || len(h.cookies) == 0 {
		return dst
	}
	dst = append(dst, "Cookie: "...)
	for i, c := range h.cookies {
		if i > 0 {
			dst = append(dst, "; "...)
		}
		dst = append(dst, c.name...)
		dst = append(dst, '=')
		dst = append(dst, c.value...)
	}
	return append(dst, "\r\n"...)
}

// value returns the Cookie header value for url's host ("" for none).
func (j *cookieJar) value(url []byte) string {
	h := j.appendHeader(nil, url)
	if len(h) == 0 {
		return ""
	}
	return string(h[len("Cookie: ") : len(h)-2])
}

// store keeps the cookie of one Set-Cookie header for url's host; an
// expired one (Max-Age ≤ 0) removes it.
func (j *cookieJar) store(url []byte, setCookie string) {
	pair, attrs, _ := strings.Cut(setCookie, ";")
	name, value, ok := strings.Cut(pair, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return
	}
	value = strings.Trim(strings.TrimSpace(value), `"`)
	expired := false
	for _, a := range strings.Split(attrs, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(a), "=")
		if strings.EqualFold(k, "max-age") {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n <= 0 {
				expired = true
			}
		}
	}
	host := urlHost(url)
	h := j.find(host)
	if h == nil {
		j.hosts = append(j.hosts, jarHost{host: string(host)})
		h = &j.hosts[len(j.hosts)-1]
	}
	for i := range h.cookies {
		if h.cookies[i].name == name {
			if expired {
				h.cookies = append(h.cookies[:i], h.cookies[i+1:]...)
			} else {
				h.cookies[i].value = value
			}
			return
		}
	}
	if !expired {
		h.cookies = append(h.cookies, cookie{name, value})
	}
}

// urlHost returns the host name of an absolute URL, without port.
func urlHost(url []byte) []byte {
	if i := bytes.Index(url, []byte("://")); i >= 0 {
		url = url[i+3:]
	}
	if i := bytes.IndexAny(url, "/?#"); i >= 0 {
		url = url[:i]
	}
	if i := bytes.LastIndexByte(url, ':'); i >= 0 && !bytes.HasSuffix(url, []byte("]")) {
		url = url[:i]
	}
	return url
}
