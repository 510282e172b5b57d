package e2e

import (
	"strings"
	"testing"
)

// TestShortcutsOverAgents: k6's -u/-d/-i with a test file and agents exit
// 2 naming the flag and why (the agents get the file as written), where
// they said before that they were URL mode's flags.
func TestShortcutsOverAgents(t *testing.T) {
	dir := t.TempDir()
	writeTest(t, dir, "t.yaml", "name: t\nbase_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n      - get: /\n")
	for _, args := range [][]string{{"-u", "2", "-d", "1s"}, {"-i", "3"}} {
		res := loadlens(t, dir, append([]string{"run", "t.yaml", "--local-agents", "1"}, args...)...)
		want := args[0] + " with a test file and agents: k6's -u/-d/-i replace a test file's load in a run in one process"
		if res.code != 2 || !strings.Contains(res.stderr, want) || strings.Contains(res.stderr, "URL mode") {
			t.Errorf("%v: exit %d, %s; want 2 and %q", args, res.code, res.stderr, want)
		}
	}
}
