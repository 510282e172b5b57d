package mock

import (
	"crypto/rand"
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// MinAdminToken is the shortest admin token accepted: a guessable one
// would let anyone on the network make the mock slow or failing.
const MinAdminToken = 16

// adminRefusal says why the admin API refuses r (an HTTP status and a
// message), or 0. As the dashboard: with a token (required when the mock
// listens where other hosts reach it) every request but a scrape of the
// metrics must carry it as a Bearer token. Without one (loopback only), a
// Host other than localhost or an IP address is refused, so that a web
// page cannot reach the API through DNS rebinding; a change from a page of
// another origin is refused; and so is a POST a page could send without
// asking (text/plain or a form), whatever its origin.
func (h *handler) adminRefusal(r *http.Request, sub string) (int, string) {
	if h.token != "" {
		if sub == "/metrics" && isRead(r) {
			return 0, "" // counters, scraped by Prometheus and loadlens's observe:
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		switch {
		case !ok || got == "":
			return http.StatusUnauthorized, "loadlens mock: the admin API takes only requests with the token the mock printed (Authorization: Bearer <token>)"
		case subtle.ConstantTimeCompare([]byte(got), []byte(h.token)) != 1:
			return http.StatusForbidden, "loadlens mock: wrong admin token"
		}
		return 0, ""
	}
	if !localHost(r.Host) {
		return http.StatusForbidden, "loadlens mock: the admin API answers requests to an IP address or localhost only, not to " + r.Host
	}
	if isRead(r) {
		return 0, ""
	}
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
		return http.StatusForbidden, "loadlens mock: the admin API takes no changes from a web page of another origin (" + o + ")"
	}
	if r.Method == http.MethodPost && pageCanSend(r.Header.Get("Content-Type")) {
		return http.StatusUnsupportedMediaType, "loadlens mock: send the admin API JSON or YAML (Content-Type: application/json): any web page can POST " +
			r.Header.Get("Content-Type") + " without asking"
	}
	return 0, ""
}

// localHost reports whether a Host header names this machine as browsers
// on it do: localhost or an IP address.
func localHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	return host == "localhost" || net.ParseIP(strings.Trim(host, "[]")) != nil
}

// sameOrigin reports whether an Origin header is the origin of the host
// the request was sent to.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}

// pageCanSend reports whether a content type is one a web page may POST to
// another origin without the browser asking it first (CORS's safelisted
// types): a change must come with another.
func pageCanSend(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType != "" // unreadable: refused; none (curl -X POST): taken
	}
	return t == "text/plain" || t == "application/x-www-form-urlencoded" || t == "multipart/form-data"
}

// adminToken returns the token the admin API requires: token when given,
// else one made up when a listener is reachable from other hosts, else none.
func adminToken(token string, listeners ...net.Listener) string {
	if token != "" {
		return token
	}
	for _, ln := range listeners {
		if ln == nil {
			continue
		}
		if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
			return rand.Text()
		}
	}
	return ""
}
