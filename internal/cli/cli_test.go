package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

// positionals are plausible positional arguments of each command, so that a
// flag can be placed after them.
var positionals = map[string][]string{
	"run":      {"t.yaml"},
	"validate": {"t.yaml"},
	"summary":  {"results/r"},
	"report":   {"results/r"},
	"capacity": {"t.yaml"},
	"compare":  {"results/a", "results/b", "results/c"},
}

// everyCommand is every command and sub-command, as the words that name it.
func everyCommand() [][]string {
	var out [][]string
	for _, c := range commands() {
		out = append(out, []string{c.name})
		for _, s := range subcommands(c.name) {
			out = append(out, strings.Fields(s.name))
		}
	}
	return out
}

func main(args ...string) (code int, stdout, stderr string) {
	var out, errb strings.Builder
	code = Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEveryCommandParsesFlagsAfterPositionals(t *testing.T) {
	cmds := everyCommand()
	if len(cmds) < 11 {
		t.Fatalf("found %d commands, want at least 11 (demo seed included)", len(cmds))
	}
	for _, words := range cmds {
		name := strings.Join(words, " ")
		args := append(append([]string{}, words...), positionals[words[0]]...)
		t.Run(name+"/unknown flag", func(t *testing.T) {
			code, stdout, stderr := main(append(args, "--no-such-flag", "1")...)
			want := "loadlens " + name + ": flag provided but not defined: -no-such-flag (see `loadlens " + name + " -h`)\n"
			if code != app.ExitBadInput || stderr != want || stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and the one line %q", code, stdout, stderr, want)
			}
		})
		t.Run(name+"/help after positionals", func(t *testing.T) {
			code, stdout, stderr := main(append(args, "-h")...)
			if code != app.ExitOK || !strings.HasPrefix(stdout, "usage: loadlens "+name) || stderr != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 0 and the usage on stdout", code, stdout, stderr)
			}
		})
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, stdout, _ := main("help")
	if code != app.ExitOK {
		t.Fatalf("help exits %d", code)
	}
	for _, words := range everyCommand() {
		if !strings.Contains(stdout, "loadlens "+strings.Join(words, " ")) {
			t.Errorf("help does not list %q:\n%s", strings.Join(words, " "), stdout)
		}
	}
}

func TestUnknownCommandsPointToTheirName(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the error's first line; "" for no hint
	}{
		{[]string{"plan", "--dau", "1000"}, `"loadlens estimate"`},
		{[]string{"ls"}, `"loadlens runs"`},
		{[]string{"diff", "a", "b"}, `"loadlens compare"`},
		{[]string{"frobnicate"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.args[0], func(t *testing.T) {
			code, _, stderr := main(tt.args...)
			first, _, _ := strings.Cut(stderr, "\n")
			if code != 2 || !strings.HasPrefix(first, `loadlens: unknown command "`+tt.args[0]+`"`) {
				t.Fatalf("exit %d, first line %q", code, first)
			}
			if tt.want != "" && !strings.Contains(first, tt.want) || tt.want == "" && first != `loadlens: unknown command "`+tt.args[0]+`"` {
				t.Fatalf("first line %q, want the hint %q", first, tt.want)
			}
		})
	}
}
