package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Finding is one finding of a loadlens run, as summary.json has it.
type Finding struct {
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	From     int    `json:"from_second"`
	To       int    `json:"to_second"`
}

// Fires reports whether the finding counts as a verdict: warning or
// critical (an info finding is context).
func (f Finding) Fires() bool { return f.Severity == "warning" || f.Severity == "critical" }

// Loadlens runs the real loadlens binary, built once from the module.
type Loadlens struct {
	Bin  string
	Core int // the CPU the generator is pinned to; -1 for none
}

// BuildLoadlens builds ./cmd/loadlens of the module at root into dir.
func BuildLoadlens(ctx context.Context, root, dir string) (*Loadlens, error) {
	bin := filepath.Join(dir, "loadlens")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/loadlens")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/loadlens: %v\n%s", err, out)
	}
	return &Loadlens{Bin: bin, Core: -1}, nil
}

// Invocation is one loadlens command's outcome.
type Invocation struct {
	Args     []string      `json:"args"`
	Exit     int           `json:"exit"`
	Wall     time.Duration `json:"wall_ns"`
	Stdout   string        `json:"-"`
	Stderr   string        `json:"-"`
	LogsPath string        `json:"logs"` // stdout and stderr, kept beside the results
}

// Exec runs loadlens with args in dir, pinned to its core, in its own
// process group (killed with the harness), keeping its output in dir.
func (l *Loadlens) Exec(ctx context.Context, dir, logName string, args ...string) (Invocation, error) {
	argv := append([]string{l.Bin}, args...)
	if ts, err := exec.LookPath("taskset"); err == nil {
		argv = append([]string{ts, "-c", cpuList(l.Core)}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	inv := Invocation{Args: args}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return inv, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-done
		}
	}
	inv.Wall, inv.Stdout, inv.Stderr = time.Since(start), out.String(), errb.String()
	inv.LogsPath = filepath.Join(dir, logName+".log")
	_ = os.WriteFile(inv.LogsPath, []byte("$ loadlens "+strings.Join(args, " ")+"\n"+inv.Stdout+"\n--- stderr\n"+inv.Stderr), 0o644)
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		inv.Exit = ee.ExitCode()
	case err != nil:
		return inv, err
	}
	return inv, ctx.Err()
}

// RunTest runs a test file and returns its findings from summary.json.
func (l *Loadlens) RunTest(ctx context.Context, dir, test string) (Invocation, []Finding, error) {
	inv, err := l.Exec(ctx, dir, "run", "run", test, "--quiet", "--no-dashboard", "--results", "results",
		"--summary-json", "summary.json")
	if err != nil {
		return inv, nil, err
	}
	if inv.Exit != 0 && inv.Exit != 99 { // 99: a threshold failed, which a faulty case is for
		return inv, nil, fmt.Errorf("loadlens run exited %d: %s", inv.Exit, lastLines(inv.Stderr+inv.Stdout, 8))
	}
	fs, err := readFindings(filepath.Join(dir, "summary.json"))
	return inv, fs, err
}

// readFindings reads summary.json's loadlens.findings.
func readFindings(path string) ([]Finding, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Loadlens struct {
			Findings []Finding `json:"findings"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s.Loadlens.Findings, nil
}

// RunDir is the one run directory under dir/results.
func RunDir(dir string) (string, error) {
	m, _ := filepath.Glob(filepath.Join(dir, "results", "*"))
	var runs []string
	for _, p := range m {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() { // beside them: history.db, the runs' index
			runs = append(runs, p)
		}
	}
	if len(runs) != 1 {
		return "", fmt.Errorf("%s: %d run directories, want 1", filepath.Join(dir, "results"), len(runs))
	}
	return runs[0], nil
}

// CapacityOutcome is what `loadlens capacity` concluded, from capacity.json.
type CapacityOutcome struct {
	Highest float64 `json:"highest"` // iterations per second (one request each in the catalogue)
	Stop    string  `json:"stop"`
	Dir     string  `json:"dir"`
}

// readCapacity reads a search directory's capacity.json; it takes the
// highest rate in requests per second when the file states it apart.
func readCapacity(dir string) (CapacityOutcome, error) {
	b, err := os.ReadFile(filepath.Join(dir, "capacity.json"))
	if err != nil {
		return CapacityOutcome{}, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return CapacityOutcome{}, fmt.Errorf("%s: %w", filepath.Join(dir, "capacity.json"), err)
	}
	out := CapacityOutcome{Dir: dir}
	out.Highest, _ = m["Highest"].(float64)
	out.Stop, _ = m["Stop"].(string)
	return out, nil
}

// instancesLine finds estimate's instance count: "instances … = 5 instances",
// or "instances, at most … = 5 instances" when the search was cut short.
var instancesLine = regexp.MustCompile(`(?m)^\s*instances(?:, at (?:most|least))?\s.*=\s*(?:at least\s+)?([0-9][0-9,]*)\s+instances?\b`)

// parseInstances reads the instance count from estimate's output.
func parseInstances(out string) (int, bool) {
	m := instancesLine.FindStringSubmatch(out)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n, err == nil
}

// lastLines returns s's last n lines.
func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
