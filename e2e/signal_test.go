package e2e

import (
	"bytes"
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
