//go:build unix

package dist

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeAgent writes a script standing in for the loadlens binary: it notes
// its pid, arguments and standard input in dir, says it listens when
// listens is set, and waits.
func fakeAgent(t *testing.T, dir string, listens bool) string {
	t.Helper()
	say := ""
	if listens {
		say = `sleep 0.1; echo "agent: listening on 127.0.0.1:1; fake"` // a tenth of a second each: the signal comes while they start
	}
	script := "#!/bin/sh\nread tok\necho \"$$ $tok $*\" >> " + filepath.Join(dir, "started") + "\n" + say + "\nexec sleep 60\n"
	exe := filepath.Join(dir, "fake-loadlens")
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return exe
}

// started reads what the fake agents noted: one line each, "pid token args…".
func started(t *testing.T, dir string) [][]string {
	b, _ := os.ReadFile(filepath.Join(dir, "started"))
	var out [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l != "" {
			out = append(out, strings.Fields(l))
		}
	}
	return out
}

func gone(pid string) bool {
	n, _ := strconv.Atoi(pid)
	return syscall.Kill(n, 0) == syscall.ESRCH
}

// TestStartingLocalAgentsStopsAtTheFirstSignal cancels StartLocal's
// context (the first Ctrl-C or SIGTERM) while agents start: it returns at
// once, saying how many had started, and leaves no agent and no directory.
func TestStartingLocalAgentsStopsAtTheFirstSignal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		listens  bool // the agents say where they listen; else the first hangs
		cancelAt int  // cancel once this many have started
	}{
		{name: "an agent that never says where it listens", cancelAt: 1},
		{name: "agents that start", listens: true, cancelAt: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			dir := t.TempDir()
			exe := fakeAgent(t, dir, tc.listens)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			go func() {
				for range 500 { // at most 10 s
					if len(started(t, dir)) >= tc.cancelAt {
						cancel(errors.New("terminated"))
						return
					}
					time.Sleep(20 * time.Millisecond) // polling the fake agents' notes
				}
			}()
			begun := time.Now()
			l, err := StartLocal(ctx, exe, manyAgents, &syncBuffer{})
			if err == nil {
				l.Stop()
				t.Fatalf("StartLocal started all %d agents through a signal", manyAgents)
			}
			if !strings.Contains(err.Error(), "stopped while starting them") || !strings.Contains(err.Error(), "terminated") {
				t.Errorf("error %q, want it to say the starting was stopped by the signal", err)
			}
			if took := time.Since(begun); took > connectWait/2 {
				t.Errorf("StartLocal returned %s after it began, want soon after the signal", took)
			}
			notes := started(t, dir)
			if len(notes) >= manyAgents {
				t.Errorf("%d agents started, want the starting stopped", len(notes))
			}
			for _, n := range notes {
				if !gone(n[0]) {
					t.Errorf("agent process %s still runs", n[0])
				}
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, localPrefix+"*")); len(left) != 0 {
				t.Errorf("left %v", left)
			}
		})
	}
}

// manyAgents is more agents than the test lets start.
const manyAgents = 12

// TestLocalAgentsGetTheTokenOnStandardInput starts two fake agents: the
// token reaches them on their standard input, on no command line and in
// no file; their temporary directory is theirs alone and goes with Stop, and
// a dead coordinator's directory goes at the next start, a live one's stays.
func TestLocalAgentsGetTheTokenOnStandardInput(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(tmp, localPrefix+strconv.Itoa(dead.Process.Pid)+"-1")
	live := filepath.Join(tmp, localPrefix+strconv.Itoa(os.Getppid())+"-2")
	for _, d := range []string{stale, live} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	l, err := StartLocal(context.Background(), fakeAgent(t, dir, true), 2, &syncBuffer{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a dead coordinator's directory is still there: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live coordinator's directory was removed: %v", err)
	}
	notes := started(t, dir)
	if len(notes) != 2 || len(l.Addrs) != 2 {
		t.Fatalf("started %v, addresses %v", notes, l.Addrs)
	}
	for _, n := range notes {
		if n[1] != l.Token || strings.Contains(strings.Join(n[2:], " "), l.Token) || !strings.Contains(strings.Join(n[2:], " "), "--token-file /dev/stdin") {
			t.Errorf("agent %s: token %q, args %v: want the token on standard input and not in the args", n[0], n[1], n[2:])
		}
	}
	l.Stop()
	for _, n := range notes {
		if !gone(n[0]) {
			t.Errorf("agent process %s still runs after Stop", n[0])
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, localPrefix+strconv.Itoa(os.Getpid())+"-*")); len(left) != 0 {
		t.Errorf("Stop left %v", left)
	}
}
