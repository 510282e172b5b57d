package cli

import (
	"flag"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// storedArgs returns the command line kept with a run (run.db, report.html,
// which CI keeps as artifacts): "loadlens", the command, and its arguments
// with secrets replaced by [REDACTED], as fs reads them.
func storedArgs(fs *flag.FlagSet, args []string) []string {
	out := []string{"loadlens"}
	if len(args) == 0 {
		return out
	}
	out = append(out, args[0])
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			for _, p := range rest[i:] {
				out = append(out, redactText(p))
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, redactText(a))
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if hasValue {
			out = append(out, a[:len(a)-len(value)]+redactFlag(name, value))
			continue
		}
		out = append(out, a)
		if f != nil && !isBoolFlag(f) && i+1 < len(rest) {
			i++
			out = append(out, redactFlag(name, rest[i]))
		}
	}
	return out
}

// redactFlag returns the value of flag name as it may be stored.
func redactFlag(name, value string) string {
	switch {
	case name == "e":
		if k, _, ok := strings.Cut(value, "="); ok {
			return k + "=" + plan.Redacted
		}
		return plan.Redacted
	case name == "H":
		if n, v, ok := strings.Cut(value, ":"); ok && plan.RedactHeaderValue(n, strings.TrimSpace(v)) == plan.Redacted {
			return n + ": " + plan.Redacted
		}
	case plan.SecretHeader(name): // a flag named like a credential: --dashboard-token, --api-key, ...
		return plan.Redacted
	}
	return redactText(value)
}

// redactText hides the secrets an argument may carry: a URL's credentials
// and credential-like query values, and a connection string's password=.
func redactText(s string) string { return plan.Redact(s) }
