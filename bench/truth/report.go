package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Machine describes where the catalogue ran.
type Machine struct {
	Host, CPU, Kernel string
	CPUs              int
	CPUMode           string // how limits and containers' CPU were made
	Layout            string // what ran on which CPU
}

// Report is everything one session measured: the raw results and the
// scores, as written to results.json and docs/accuracy.md.
type Report struct {
	Date      time.Time       `json:"date"`
	Commit    string          `json:"commit"`
	Tested    string          `json:"tested,omitempty"`   // fingerprint of the code under test; "" for uncommitted code
	Sessions  int             `json:"sessions,omitempty"` // how many sessions a merged report joins
	Machine   Machine         `json:"machine"`
	WallS     float64         `json:"wall_s"`
	Other     Busy            `json:"other_cores"` // other processes' CPU over the whole session
	Repeat    int             `json:"repeat"`
	Busy      float64         `json:"busy_threshold_cores"`
	Quick     bool            `json:"quick"`
	Runs      []RunRecord     `json:"runs"`
	Caps      []CapRecord     `json:"capacity"`
	Compares  []CompareRecord `json:"compare"`
	Rules     []RuleScore     `json:"rules"`
	Cases     []CaseScore     `json:"cases"`
	CmpScore  []CompareScore  `json:"compare_scores"`
	BusyNamed BusyAgreement   `json:"busy_agreement"`
	Misses    []string        `json:"misses"`
}

// describeMachine reads the host's name, CPU model and kernel.
func describeMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU()}
	m.Host, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}

// describeLayout says what runs where.
func describeLayout(l Layout) string {
	if l.Gen < 0 {
		return "one CPU: nothing pinned"
	}
	return "CPU 0: loadlens, the harness's own client and exporter, node_exporter, postgres_exporter, redis_exporter, the mock; " +
		"CPU 1: the system under test (truthapp's JVM, PostgreSQL, Redis; or the demo shop; or nginx). " +
		"A target that saturates its core never takes the generator's, and a hog starves the side it is put on"
}

// commit is the module's HEAD, marked when the tree has changes.
func commit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}

// writeJSON writes the raw results.
func writeJSON(path string, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
