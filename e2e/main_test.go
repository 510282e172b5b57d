// Package e2e runs the real loadlens binary against in-process targets on
// 127.0.0.1, the way a user or CI job would.
package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// binary is the loadlens executable built once for all tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "loadlens-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "loadlens")
	build := exec.Command("go", "build", "-o", binary, "../cmd/loadlens")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building loadlens:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one invocation of the binary did.
type result struct {
	stdout, stderr string
	code           int
	cpu            time.Duration // the run's user and system CPU time
}

// loadlens runs the binary in dir with args and waits for it (at most 2 minutes).
func loadlens(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r, err := invoke(dir, args)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// loadlensTogether runs the binary once for each args, all at the same
// time, in dir, and returns their results in order: runs that wait on a
// schedule, not on the CPU, need not wait for each other.
func loadlensTogether(t *testing.T, dir string, args ...[]string) []result {
	t.Helper()
	out, errs := make([]result, len(args)), make([]error, len(args))
	var wg sync.WaitGroup
	for i, a := range args {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = invoke(dir, a)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

// invoke runs the binary in dir with args and waits for it (at most 2
// minutes); the error is one of running it, not its exit code.
func invoke(dir string, args []string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		return result{}, fmt.Errorf("running loadlens %v: %v", args, err)
	}
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	return result{out.String(), errb.String(), code, cpu}, nil
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond) // polling a condition, bounded by the deadline
	}
}

// pollUntil polls cond until it holds or limit passes, and says whether it held.
func pollUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond) // polling a condition, bounded by the deadline
	}
	return true
}

// onlyRunDir returns the single run directory under results.
func onlyRunDir(t *testing.T, results string) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(results, "*", "run.db"))
	if len(dirs) != 1 {
		t.Fatalf("want one run in %s, found %v", results, dirs)
	}
	return filepath.Dir(dirs[0])
}
