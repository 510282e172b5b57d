package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletion sources each shell's script in that shell and asks it to
// complete: a command, a flag of run (read from run's own -h, so k6's -u
// is there), and completion's shells.
func TestCompletion(t *testing.T) {
	cases := map[string]struct {
		script func(file string) string // a shell program printing the completions of three words
	}{
		"bash": {func(f string) string {
			return `source ` + f + `
c() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _loadlens; echo "${COMPREPLY[*]}"; }
c loadlens va; c loadlens run --ra; c loadlens run -; c loadlens completion f`
		}},
		"zsh": {func(f string) string { // as bashcompinit calls it: emulating sh, arrays from 0
			return `source ` + f + `
c() { emulate -L sh; setopt kshglob noshglob braceexpand; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _loadlens; echo "${COMPREPLY[*]}"; }
c loadlens va; c loadlens run --ra; c loadlens run -; c loadlens completion f`
		}},
		"fish": {func(f string) string {
			return `source ` + f + `
for w in "loadlens va" "loadlens run --ra" "loadlens run -" "loadlens completion f"; echo (complete -C"$w" | cut -f1); end`
		}},
	}
	for shell, c := range cases {
		t.Run(shell, func(t *testing.T) {
			bin, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed", shell)
			}
			var out bytes.Buffer
			if code := Main(context.Background(), []string{"completion", shell}, &out, &out); code != 0 {
				t.Fatalf("exit %d: %s", code, out.String())
			}
			f := filepath.Join(t.TempDir(), "completion."+shell)
			os.WriteFile(f, out.Bytes(), 0o644)
			got, err := exec.Command(bin, "-c", c.script(f)).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s\nscript:\n%s", err, got, out.String())
			}
			lines := strings.Split(strings.TrimSpace(string(got)), "\n")
			if len(lines) != 4 {
				t.Fatalf("%d lines, want 4:\n%s", len(lines), got)
			}
			for i, want := range []string{"validate", "--ramp --rate", "-u", "fish"} {
				if !strings.Contains(" "+lines[i]+" ", " "+want) {
					t.Errorf("completion %d: %q, want %q in it", i, lines[i], want)
				}
			}
		})
	}
	var out bytes.Buffer
	if code := Main(context.Background(), []string{"completion", "tcsh"}, &out, &out); code != 2 || !strings.Contains(out.String(), `unknown shell "tcsh"`) {
		t.Errorf("an unknown shell: exit %d, %s", code, out.String())
	}
}
