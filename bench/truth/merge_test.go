package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// session is a saved session of one judged pool-small run and one compare.
func session(tested, commit string, fired []string, other Busy) *Report {
	return &Report{Date: time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC), Commit: commit, Tested: tested, Repeat: 1, WallS: 100, Other: other,
		Runs:     []RunRecord{{Case: "pool-small", Rep: 1, Judged: true, Fired: fired}},
		Compares: []CompareRecord{{Case: "compare-20", Rep: 1, Slowdown: 1.2, Change: true, Judged: true, Exit: 99}}}
}

func TestMergeReports(t *testing.T) {
	hit, miss := []string{"pool-exhaustion"}, []string{"saturation"}
	tests := []struct {
		name     string
		sessions []*Report
		err      string // "" for a merge
		recall   float64
		repeat   int
	}{
		{"two sessions of one tested code", []*Report{session("f1", "aaa", hit, Busy{0.1, 0.3, 10}), session("f1", "bbb", miss, Busy{0.4, 0.9, 30})}, "", 0.5, 2},
		{"three sessions, every run a hit", []*Report{session("f1", "a", hit, Busy{}), session("f1", "a", hit, Busy{}), session("f1", "b", hit, Busy{})}, "", 1, 3},
		{"other tested code", []*Report{session("f1", "aaa", hit, Busy{}), session("f2", "bbb", hit, Busy{})}, "tested other code than session 1 (aaa)", 0, 0},
		{"uncommitted code", []*Report{session("", "aaa (with uncommitted changes)", hit, Busy{})}, "uncommitted code", 0, 0},
		{"a quick session", []*Report{{Tested: "f1", Commit: "q", Quick: true}}, "-quick", 0, 0},
		{"nothing", nil, "nothing to merge", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mergeReports(tt.sessions)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Repeat != tt.repeat || m.Sessions != len(tt.sessions) || len(m.Runs) != tt.repeat || len(m.Compares) != tt.repeat {
				t.Fatalf("repeat %d, sessions %d, %d runs, %d compares; want %d of each", m.Repeat, m.Sessions, len(m.Runs), len(m.Compares), tt.repeat)
			}
			for i, r := range m.Runs {
				if r.Rep != i+1 || m.Compares[i].Rep != i+1 {
					t.Errorf("run %d numbered %d, compare %d; want each session's own repetition", i, r.Rep, m.Compares[i].Rep)
				}
			}
			var pool RuleScore
			for _, r := range m.Rules {
				if r.Rule == "pool-exhaustion" {
					pool = r
				}
			}
			if pool.MustRuns != tt.repeat || float64(pool.Recall) != tt.recall {
				t.Errorf("pool-exhaustion: %d must runs, recall %v; want %d and %v (scored over every session)", pool.MustRuns, pool.Recall, tt.repeat, tt.recall)
			}
			if m.WallS != 100*float64(tt.repeat) {
				t.Errorf("wall %v s, want the sessions' sum", m.WallS)
			}
		})
	}
}

func TestMergeWeighsOtherProcessesBySample(t *testing.T) {
	m, err := mergeReports([]*Report{session("f", "a", nil, Busy{0.1, 0.3, 10}), session("f", "b", nil, Busy{0.5, 0.9, 30})})
	if err != nil {
		t.Fatal(err)
	}
	if want := (0.1*10 + 0.5*30) / 40; m.Other.Mean < want-1e-9 || m.Other.Mean > want+1e-9 || m.Other.Max != 0.9 || m.Commit != "a, b" {
		t.Errorf("other %+v, commit %q; want mean %v, max 0.9, commit \"a, b\"", m.Other, m.Commit, want)
	}
}

func TestSavedReportRoundTrips(t *testing.T) {
	root := t.TempDir()
	rep := session("f1", "0123456789ab", []string{"pool-exhaustion"}, Busy{0.2, 0.5, 4})
	path, err := saveReport(root, rep)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, savedDir, "20261202-0500-0123456789ab.json.gz"); path != want {
		t.Errorf("saved as %s, want %s", path, want)
	}
	got, err := readReport(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tested != "f1" || len(got.Runs) != 1 || got.Runs[0].Fired[0] != "pool-exhaustion" || got.Other != rep.Other {
		t.Errorf("read back %+v", got)
	}
	if _, err := readReport(filepath.Join(root, "absent.json")); err == nil {
		t.Error("a missing file read without an error")
	}
	bad := filepath.Join(root, "bad.json.gz")
	if err := os.WriteFile(bad, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readReport(bad); err == nil || !strings.Contains(err.Error(), "bad.json.gz") {
		t.Errorf("a corrupt file: %v, want an error naming it", err)
	}
}

func TestFingerprintFollowsTheTestedCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commitAll := func(msg string) {
		git("add", "-A")
		git("commit", "-q", "-m", msg)
	}
	git("init", "-q")
	write("internal/diagnose/rule.go", "package diagnose\n")
	write("bench/truth/cases.go", "package main\n")
	write("README.md", "x\n")
	commitAll("one")
	base := fingerprint(root)
	if base == "" {
		t.Fatal("no fingerprint for a clean tree")
	}
	steps := []struct {
		name  string
		edit  func()
		same  bool // the fingerprint stays
		dirty bool // left uncommitted
	}{
		{"docs", func() { write("README.md", "y\n"); write("bench/truth/README.md", "z\n") }, true, false},
		{"saved results", func() { write(savedDir+"/20261202-0500-abc.json.gz", "r") }, true, false},
		{"uncommitted rule", func() { write("internal/diagnose/rule.go", "package diagnose // changed\n") }, false, true},
		{"committed rule", func() {}, false, false},
		{"a case", func() { write("bench/truth/cases.go", "package main // changed\n") }, false, false},
	}
	prev := base
	for _, s := range steps {
		s.edit()
		if !s.dirty {
			commitAll(s.name)
		}
		got := fingerprint(root)
		switch {
		case s.dirty && got != "":
			t.Errorf("%s: fingerprint %q for uncommitted code, want none", s.name, got)
		case !s.dirty && s.same && got != prev:
			t.Errorf("%s: fingerprint changed %s → %s", s.name, prev, got)
		case !s.dirty && !s.same && (got == prev || got == ""):
			t.Errorf("%s: fingerprint %q, want a new one (was %s)", s.name, got, prev)
		}
		if !s.dirty {
			prev = got
		}
	}
}
