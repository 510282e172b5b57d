package main

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// testedPaths are what a verdict depends on: loadlens's code, its modules,
// and the harness (its cases, services, premises and scoring). Two sessions
// whose fingerprints of them agree measured the same thing, whenever they ran.
var testedPaths = []string{"internal", "cmd", "go.mod", "go.sum", "bench/truth"}

// savedDir is where sessions' raw results are kept for merging; it is not
// itself part of what is tested.
const savedDir = "bench/truth/results"

// fingerprint hashes the committed tree of testedPaths; "" when any of them
// has uncommitted changes, since then no commit says what ran.
func fingerprint(root string) string {
	args := append([]string{"-C", root, "status", "--porcelain", "--untracked-files=no", "--"}, testedPaths...)
	if st, err := exec.Command("git", args...).Output(); err != nil || len(st) > 0 {
		return ""
	}
	args = append([]string{"-C", root, "ls-tree", "-r", "HEAD", "--"}, testedPaths...)
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, line := range strings.Split(string(out), "\n") {
		_, path, _ := strings.Cut(line, "\t")
		if path == "" || strings.HasSuffix(path, ".md") || strings.HasPrefix(path, savedDir+"/") {
			continue // docs and saved results change nothing measured
		}
		io.WriteString(h, line+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// readReport reads a session's results.json, gzipped or not.
func readReport(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var rep Report
	dec := json.NewDecoder(io.LimitReader(r, 256<<20)) // a saved session is well under a MiB
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &rep, nil
}

// saveReport writes a session's raw results gzipped under the module's
// savedDir, named by its date and commit, for a later -merge.
func saveReport(root string, rep *Report) (string, error) {
	name := fmt.Sprintf("%s-%s.json.gz", rep.Date.UTC().Format("20060102-1504"), strings.Fields(rep.Commit + " x")[0])
	path := filepath.Join(root, savedDir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		return "", err
	}
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	zw := gzip.NewWriter(f)
	_, err = zw.Write(append(b, '\n'))
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

// mergeReports joins sessions of the same tested code into one report,
// rescored over every run: repetitions gathered on different days count
// as one catalogue when nothing that could change a verdict changed.
func mergeReports(reps []*Report) (*Report, error) {
	if len(reps) == 0 {
		return nil, errors.New("nothing to merge")
	}
	first := reps[0]
	m := &Report{Date: first.Date, Machine: first.Machine, Busy: first.Busy, Tested: first.Tested}
	var commits []string
	var otherSum float64
	var otherN int
	for i, r := range reps {
		switch {
		case r.Quick:
			return nil, fmt.Errorf("session %d (%s) is a -quick run: its loads are shortened", i+1, r.Commit)
		case r.Tested == "":
			return nil, fmt.Errorf("session %d (%s) ran uncommitted code: no commit says what it measured", i+1, r.Commit)
		case r.Tested != first.Tested:
			return nil, fmt.Errorf("session %d (%s) tested other code than session 1 (%s): fingerprints %s and %s",
				i+1, r.Commit, first.Commit, r.Tested, first.Tested)
		}
		offset := m.Repeat
		for _, run := range r.Runs {
			run.Rep += offset
			m.Runs = append(m.Runs, run)
		}
		for _, c := range r.Compares {
			c.Rep += offset
			m.Compares = append(m.Compares, c)
		}
		m.Caps = append(m.Caps, r.Caps...)
		m.Repeat += r.Repeat
		m.WallS += r.WallS
		otherSum += r.Other.Mean * float64(r.Other.Samples)
		otherN += r.Other.Samples
		m.Other.Max = max(m.Other.Max, r.Other.Max)
		if r.Date.Before(m.Date) {
			m.Date = r.Date
		}
		commits = append(commits, r.Commit)
	}
	if otherN > 0 {
		m.Other.Mean, m.Other.Samples = otherSum/float64(otherN), otherN
	}
	m.Commit = strings.Join(dedupe(commits), ", ")
	m.Sessions = len(reps)
	cs, _, pairs, err := selectCases(nil, false)
	if err != nil {
		return nil, err
	}
	m.score(cs, pairs)
	return m, nil
}

// dedupe keeps the first of each string, in order.
func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
