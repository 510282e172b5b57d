package otlp

import (
	"net/url"
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
// else the host of its URL; bounded.
func peerHost(host, rawURL string) string {
	if host == "" {
		if u, err := url.Parse(rawURL); err == nil {
			host = u.Hostname()
		}
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
