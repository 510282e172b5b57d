package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEveryCommandStopsAtTheFirstSignal: each command, held up reading an
// input that never ends (a named pipe no one writes: an import of a spec
// still arriving, a validate, a report of a run.db on a stalled disk),
// ends within seconds of one SIGTERM, with a non-zero exit and saying so.
// Before, everything but run and capacity ignored SIGTERM and the first
// two Ctrl-C, so `timeout 60 loadlens import ...` never ended it.
func TestEveryCommandStopsAtTheFirstSignal(t *testing.T) {
	dir := t.TempDir()
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		return p
	}
	spec, test := fifo("spec.yaml"), fifo("test.yaml")
	runDB := fifo("results/r1/run.db")
	run := filepath.Dir(runDB)
	for _, args := range [][]string{
		{"import", "openapi", spec},
		{"import", "har", spec},
		{"import", "k6", spec},
		{"import", "curl", spec},
		{"import", "curl", "-"},
		{"validate", test},
		{"run", test},
		{"capacity", test},
		{"k8s", "manifest", test, "--agents", "2"},
		{"report", run},
		{"summary", run},
		{"export", run, "--format", "csv"},
		{"compare", run, run},
		{"estimate", "--from-run", run},
		{"runs", "--results", filepath.Dir(run)},
	} {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir+"/", ""), func(t *testing.T) {
			cmd := exec.Command(binary, args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe() // held open: "import curl -" waits for more
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			defer cmd.Process.Kill()
			waitFor(t, 20*time.Second, "the command to wait on its input", func() bool { return waitsOnPipe(cmd.Process.Pid) })
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				took := time.Since(sent)
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() <= 0 {
					t.Errorf("exit %v after SIGTERM, want a non-zero exit code (not a death by the signal)", err)
				}
				if !strings.Contains(stderr.String(), "stopped (terminated)") {
					t.Errorf("stderr does not say it stopped:\n%s", stderr.String())
				}
				t.Logf("ended %v after SIGTERM", took.Round(time.Millisecond))
			case <-time.After(5 * time.Second):
				t.Fatalf("still running 5 s after SIGTERM\n%s", stderr.String())
			}
		})
	}
}

// waitsOnPipe reports whether one of process pid's threads is asleep
// opening a named pipe no one writes, or reading a pipe, as the kernel
// shows it: the command has started and is held up by its input.
func waitsOnPipe(pid int) bool {
	wchans, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "wchan"))
	for _, p := range wchans {
		w, _ := os.ReadFile(p)
		if strings.Contains(string(w), "pipe") || strings.Contains(string(w), "wait_for_partner") {
			return true
		}
	}
	return false
}

// TestSIGTERMEndsAnImportAtWork: an import busy reading a large spec (4,000
// operations with 60-property bodies, 28 MB: about ten seconds of work)
// ends within two seconds of one SIGTERM, exit 1, saying so. Before, it
// ran on to its end whatever the signals.
func TestSIGTERMEndsAnImportAtWork(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "heavy.json")
	writeHeavySpec(t, spec, 4000, 60)
	cmd := exec.Command(binary, "import", "openapi", spec, "--out", filepath.Join(dir, "t.yaml"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()
	busy := func() bool { return cpuTime(cmd.Process.Pid) >= 300*time.Millisecond }
	waitFor(t, 30*time.Second, "the import to have worked 300 ms of CPU", busy)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("the import ended before the signal: %v\n%s", err, stderr.String())
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "import stopped (terminated)") {
			t.Errorf("exit %v, stderr %q; want exit 1 and the stop said", err, stderr.String())
		}
		t.Logf("ended %v after SIGTERM", time.Since(sent).Round(time.Millisecond))
	case <-time.After(2 * time.Second):
		t.Fatalf("still importing 2 s after SIGTERM\n%s", stderr.String())
	}
}

// writeHeavySpec writes an OpenAPI spec of ops operations, each with a
// JSON body of props properties, as indented JSON.
func writeHeavySpec(t *testing.T, path string, ops, props int) {
	t.Helper()
	var schema strings.Builder
	for j := range props {
		if j > 0 {
			schema.WriteString(",\n")
		}
		fmt.Fprintf(&schema, `     "p%d": {"type": "string", "description": "property %d of a large schema"}`, j, j)
	}
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "heavy", "version": "1"}, "paths": {` + "\n")
	for i := range ops {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, ` "/p%d": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {`+"\n%s\n"+
			`}}}}}, "responses": {"200": {"description": "ok"}}}}`, i, schema.String())
	}
	b.WriteString("}}\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cpuTime is the user and system CPU time process pid has used, from
// /proc/<pid>/stat (in clock ticks of 10 ms).
func cpuTime(pid int) time.Duration {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The command name may hold spaces: the fields after it start past its ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
