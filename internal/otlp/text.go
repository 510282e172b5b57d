package otlp

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of a kept span's strings: a name or statement of megabytes would
// otherwise be kept whole. A statement is normalized to far less than
// maxStatement, which leaves it room for comments and long literals.
const (
	maxText      = 256
	maxStatement = 8 << 10
)

// peerHost names the peer of an outgoing HTTP call: its host attribute, or
// else the host of its URL, with its port attribute or its URL's (of the
// same host) as host:port, so two services on one host are two peers. The
// scheme's default ports are left out: instrumentations that set them and
// those that do not name the peer alike. Bounded.
func peerHost(host, port, rawURL string) string {
	if h, p, err := net.SplitHostPort(host); err == nil { // http.host is the Host header, which may carry the port
		host = h
		if port == "" {
			port = p
		}
	}
	if host == "" || port == "" {
		if u, err := url.Parse(rawURL); err == nil && (host == "" || u.Hostname() == host) {
			host = u.Hostname()
			if port == "" {
				port = u.Port()
			}
		}
	}
	if n, err := strconv.Atoi(port); err == nil && host != "" && n > 0 && n <= 65535 && n != 80 && n != 443 {
		host = net.JoinHostPort(host, strconv.Itoa(n))
	}
	return bounded(host, maxText)
}

// bounded returns s cut to at most n bytes (at a character), copied when
// cut so that the decoded export's text is not kept with it.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}
