package compare

import "strings"

// sessionGate reads a session metric's name at the start of a gate (
// "first msg p95 +10%"), as the table names its line, in any case, and
// returns what follows it; ok is false when s starts with none. These
// names are several words, which the request metrics' one-word reading
// would cut at the first space.
func sessionGate(s string) (m Metric, rest string, ok bool) {
	for _, m := range sessionGateMetrics() {
		name := sessionNames[m]
		if len(s) < len(name) || !strings.EqualFold(s[:len(name)], name) { // bytes, not a lower-cased copy whose length may differ
			continue
		}
		if rest = s[len(name):]; rest == "" || strings.ContainsAny(rest[:1], "{+- \t") {
			return m, strings.TrimSpace(rest), true
		}
	}
	return 0, "", false
}

// sessionGateNames lists the session metrics a gate may name, for messages.
func sessionGateNames() string {
	var names []string
	for _, m := range sessionGateMetrics() {
		names = append(names, sessionNames[m])
	}
	return strings.Join(names, ", ")
}

// sessionGateMetrics are the session metrics a gate may name, in table order.
func sessionGateMetrics() []Metric {
	var out []Metric
	for m := SessionRate; m < endSessionMetrics; m++ {
		out = append(out, m)
	}
	return append(out, ReplyP50, ReplyP95)
}
