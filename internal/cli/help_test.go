package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// TestHelpFitsTerminal: `loadlens -h` and every command's -h fit a
// 100-column terminal, without tabs whose width the terminal decides.
func TestHelpFitsTerminal(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	cmds := append([][]string{{}}, everyCommand()...)
	for _, words := range cmds {
		name := strings.Join(append([]string{"loadlens"}, words...), " ")
		code, stdout, _ := main(append(words, "-h")...)
		if code != 0 {
			t.Fatalf("%s -h exits %d", name, code)
		}
		if !strings.Contains(stdout, "usage") {
			t.Fatalf("%s -h printed no usage:\n%s", name, stdout)
		}
		for i, line := range strings.Split(stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > units.Columns || strings.Contains(line, "\t") {
				t.Errorf("%s -h line %d is %d columns (tab: %v): %q", name, i+1, n, strings.Contains(line, "\t"), line)
			}
		}
	}
}
