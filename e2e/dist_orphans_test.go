package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// agentsIn lists the running agents of this test's binary whose temporary
// directory is below tmp: the local agents of a coordinator started with TMPDIR=tmp.
func agentsIn(tmp string) []string {
	var out []string
	for _, f := range agentProcesses() {
		env, err := os.ReadFile(filepath.Join(filepath.Dir(f), "environ"))
		if err == nil && strings.Contains("\x00"+string(env), "\x00TMPDIR="+tmp+string(filepath.Separator)) {
			out = append(out, filepath.Base(filepath.Dir(f)))
		}
	}
	return out
}

// TestLocalAgentsDieWithTheirCoordinator kills -9 a coordinator while its
// local agents start, and mid-run: its agents are gone within seconds (the
// kernel's parent-death signal), no token was ever written to the temp dir,
// and the directory the agents kept their files in goes at the next start.
func TestLocalAgentsDieWithTheirCoordinator(t *testing.T) {
	url, count := countingTarget(t, 0)
	for _, tc := range []struct {
		name   string
		agents string
		when   func(tmp string) bool // kill the coordinator once this holds
	}{
		{name: "while its agents start", agents: "8", when: func(tmp string) bool { return len(agentsIn(tmp)) >= 1 }},
		{name: "mid-run", agents: "2", when: func(string) bool { return count.Load() >= 20 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			test := fmt.Sprintf("name: orphans\nbase_url: %s\nscenarios:\n  open:\n    rate: 20\n    duration: 10m\n    flow:\n      - get: /o\n", url)
			if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
				t.Fatal(err)
			}
			count.Store(0)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			coord := exec.CommandContext(ctx, binary, "run", "t.yaml", "--local-agents", tc.agents, "--results", "results", "--quiet")
			coord.Dir, coord.Env = dir, append(os.Environ(), "TMPDIR="+tmp)
			var out testkit.Buffer
			coord.Stdout, coord.Stderr = &out, &out
			coord.WaitDelay = 2 * time.Second // an orphan agent holds its stderr open
			if err := coord.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { // whatever this test left running
				for _, pid := range agentsIn(tmp) {
					if n, err := strconv.Atoi(pid); err == nil {
						_ = syscall.Kill(n, syscall.SIGKILL)
					}
				}
			})
			waitFor(t, 30*time.Second, "the moment to kill the coordinator", func() bool { return tc.when(tmp) })
			if err := coord.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = coord.Wait()
			if !pollUntil(5*time.Second, func() bool { return len(agentsIn(tmp)) == 0 }) {
				t.Fatalf("agents %v still run 5s after their coordinator was killed\n%s", agentsIn(tmp), out.String())
			}
			_ = filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Name() == "token" {
					t.Errorf("a token file in the temp dir: %s", p)
				}
				return nil
			})
			left, _ := filepath.Glob(filepath.Join(tmp, "loadlens-agents-of-*"))
			if len(left) != 1 {
				t.Fatalf("the killed coordinator's agents' directory: %v, want the one it could not remove", left)
			}

			// The next start removes it.
			short := fmt.Sprintf("name: next\nbase_url: %s\nscenarios:\n  s:\n    iterations: 1\n    flow:\n      - get: /n\n", url)
			if err := os.WriteFile(filepath.Join(dir, "next.yaml"), []byte(short), 0o644); err != nil {
				t.Fatal(err)
			}
			next := exec.CommandContext(ctx, binary, "run", "next.yaml", "--local-agents", "1", "--results", "results", "--quiet")
			next.Dir, next.Env = dir, append(os.Environ(), "TMPDIR="+tmp)
			if b, err := next.CombinedOutput(); err != nil {
				t.Fatalf("the next run: %v\n%s", err, b)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "loadlens-*")); len(left) != 0 {
				t.Errorf("after the next run the temp dir still holds %v", left)
			}
		})
	}
}
