package cli

import (
	"regexp"
	"strings"
	"testing"
)

// flagHelp matches one flag's block in a command's -h: its line and the
// indented help under it.
var flagHelp = regexp.MustCompile(`(?m)^  -(\S+).*\n((?:    .*\n?)*)`)

// TestHelpStatesEachDefaultOnce: a flag whose help text already says its
// default must not have flag's "(default …)" after it as well.
func TestHelpStatesEachDefaultOnce(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318") // a default taken from the environment shows too
	for _, words := range everyCommand() {
		name := strings.Join(words, " ")
		code, stdout, _ := main(append(words, "-h")...)
		if code != 0 {
			t.Fatalf("%s -h exits %d", name, code)
		}
		blocks := flagHelp.FindAllStringSubmatch(stdout, -1)
		for _, b := range blocks {
			help := strings.ToLower(b[2])
			if n := strings.Count(help, "default") + strings.Count(help, "unset:"); n > 1 {
				t.Errorf("%s -%s states its default %d times:%s", name, b[1], n, b[2])
			}
		}
		if len(blocks) == 0 && strings.Contains(stdout, "\n  -") {
			t.Errorf("%s -h: no flag blocks matched:\n%s", name, stdout)
		}
	}
}
