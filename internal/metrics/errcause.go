package metrics

import (
	"regexp"
	"strings"
)

// volatile matches the parts of an error message that change from one
// failure to the next while the cause stays the same: a timestamp (x509's
// "current time 2026-11-30T16:34:26Z is after …" differs each second) and
// the local address of a connection ("read tcp 127.0.0.1:54321->…", a new
// ephemeral port each time).
var volatile = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?` +
	`|(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.%\w]*\]):\d+->`)

// causeKey is msg with its volatile parts replaced, what failures are
// grouped by: one TLS cause is one group, not one per second. The message
// kept as the group's example stays whole.
func causeKey(msg string) string {
	if !strings.ContainsAny(msg, "0123456789") {
		return msg // nothing volatile: the common case costs no regexp
	}
	return volatile.ReplaceAllStringFunc(msg, func(m string) string {
		if strings.HasSuffix(m, "->") {
			return "<local>->"
		}
		return "<time>"
	})
}

// sameCause reports whether two failure messages say the same thing but
// for their volatile parts.
func sameCause(a, b string) bool {
	return a == b || causeKey(a) == causeKey(b)
}
