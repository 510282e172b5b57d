package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// usesTruthapp reports whether any selected case needs the Spring service.
func usesTruthapp(cs []Case, caps []CapCase, pairs []ComparePair) bool {
	for _, c := range cs {
		if c.Deploy.Target == TargetTruthapp {
			return true
		}
	}
	for _, c := range caps {
		if c.Deploy.Target == TargetTruthapp {
			return true
		}
	}
	return len(pairs) > 0
}

// Prerequisites lists the programs the selected cases need that are not
// installed (the test skips, or under LOADLENS_CI=1 fails, on them).
func Prerequisites(cfg Config) ([]string, error) {
	cs, caps, pairs, err := selectCases(cfg.Cases, cfg.Quick)
	if err != nil {
		return nil, err
	}
	progs := []string{"prometheus-node-exporter"}
	targets := map[string]bool{}
	for _, c := range cs {
		targets[c.Deploy.Target] = true
	}
	for _, c := range caps {
		targets[c.Deploy.Target] = true
	}
	if usesTruthapp(cs, caps, pairs) {
		progs = append(progs, "java", "mvn", "initdb", "redis-server", "prometheus-postgres-exporter", "prometheus-redis-exporter")
	}
	if targets[TargetNginx] {
		progs = append(progs, "nginx")
	}
	var missing []string
	for _, p := range progs {
		if _, err := lookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	return missing, nil
}

// Run runs a session: the selected cases, their scores, the raw results
// and (for the whole catalogue) docs/accuracy.md.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	began := time.Now()
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	cfg.defaults(root, began)
	cs, caps, pairs, err := selectCases(cfg.Cases, cfg.Quick)
	if err != nil {
		return nil, err
	}
	caps = withCalibrations(cs, caps)
	out := cfg.Out
	removeStale(os.TempDir())
	work, err := os.MkdirTemp("", fmt.Sprintf("loadlens-truth-%d-", os.Getpid()))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	if err := os.Chmod(work, 0o755); err != nil { // PostgreSQL runs as its own user, under it
		return nil, err
	}
	logf("building loadlens; raw results in %s", out)
	ll, err := BuildLoadlens(ctx, root, work)
	if err != nil {
		return nil, err
	}
	lab, err := NewLab(root, work, filepath.Join(out, "logs"), ll, runtime.NumCPU())
	if err != nil {
		return nil, err
	}
	defer lab.Close()
	if usesTruthapp(cs, caps, pairs) {
		logf("building truthapp from %s", cfg.Spring)
		app, err := BuildTruthapp(ctx, cfg.Spring)
		if err != nil {
			return nil, err
		}
		if lab.App, err = app.keep(work); err != nil {
			return nil, err
		}
	}
	meterCtx, stopMeter := context.WithCancel(ctx)
	defer stopMeter()
	go lab.Meter.Run(meterCtx)
	sess := &Session{Lab: lab, Out: out, Busy: cfg.Busy, Wait: cfg.Wait, Quick: cfg.Quick, Capacity: map[string]float64{}, LowerBound: map[string]float64{}}
	repeat := cfg.Repeat
	if cfg.Quick {
		repeat = 1
	}
	rep := &Report{Date: began, Commit: commit(root), Tested: fingerprint(root), Machine: describeMachine(), Repeat: repeat, Busy: cfg.Busy, Quick: cfg.Quick}
	rep.Machine.CPUMode, rep.Machine.Layout = lab.CPUMode(), describeLayout(lab.Layout)
	sess.runAll(ctx, rep, cs, caps, pairs, repeat)
	rep.WallS, rep.Other = time.Since(began).Seconds(), lab.Meter.Window(began, time.Now())
	rep.score(cs, pairs)
	if err := write(rep, out, cfg.Doc); err != nil {
		return rep, err
	}
	if cfg.Save && !cfg.Quick {
		keep(root, rep)
	}
	return rep, ctx.Err()
}

// keep saves a session's raw results for a later -merge, when a commit
// says what it measured.
func keep(root string, rep *Report) {
	if rep.Tested == "" {
		logf("results not kept for -merge: the tested code had uncommitted changes")
		return
	}
	path, err := saveReport(root, rep)
	if err != nil {
		logf("results not kept for -merge: %v", err)
		return
	}
	logf("kept %s for -merge (commit it beside the code it tested)", path)
}

// Merge joins saved sessions into one score and writes docs/accuracy.md.
func Merge(_ context.Context, cfg Config) (*Report, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	if cfg.Doc == "" {
		cfg.Doc = filepath.Join(root, "docs", "accuracy.md")
	}
	var reps []*Report
	for _, p := range cfg.Merge {
		r, err := readReport(p)
		if err != nil {
			return nil, err
		}
		reps = append(reps, r)
	}
	m, err := mergeReports(reps)
	if err != nil {
		return nil, err
	}
	return m, writeDocFile(m, cfg.Doc)
}

// write writes the raw results into out and the tables into doc ("" for none).
func write(rep *Report, out, doc string) error {
	if err := writeJSON(filepath.Join(out, "results.json"), rep); err != nil {
		return err
	}
	if doc == "" {
		return nil
	}
	return writeDocFile(rep, doc)
}

// writeDocFile writes the accuracy tables into doc.
func writeDocFile(rep *Report, doc string) error {
	var b bytes.Buffer
	writeDoc(&b, rep)
	if err := os.WriteFile(doc, b.Bytes(), 0o644); err != nil {
		return err
	}
	logf("wrote %s", doc)
	return nil
}

// score scores the report's runs, searches and comparisons against the
// cases and pairs they ran.
func (r *Report) score(cs []Case, pairs []ComparePair) {
	r.Rules, r.Cases, r.CmpScore = scoreRules(cs, r.Runs), scoreCases(cs, r.Runs), scoreCompares(pairs, r.Compares)
	r.BusyNamed = scoreBusy(r.Runs)
	r.Misses = Misses(r.Rules, scoredCaps(r.Caps), r.CmpScore)
}

// runAll runs capacity cases first (the healthy cases' load is a share of
// a sweep's capacity), then each repetition of every findings case, then
// the compare pairs: a repetition at a time, so that a busy spell on the
// host costs one run of several cases rather than every run of one.
func (s *Session) runAll(ctx context.Context, rep *Report, cs []Case, caps []CapCase, pairs []ComparePair, repeat int) {
	for _, c := range caps {
		n := repeat
		if c.calibrationOnly {
			n = 0
		}
		logf("capacity %s", c.ID)
		r := s.RunCapacity(ctx, c, n)
		s.Capacity[c.ID], s.LowerBound[c.ID] = r.Truth, r.LowerBound
		rep.Caps = append(rep.Caps, r)
	}
	for i := 1; i <= repeat && ctx.Err() == nil; i++ {
		for _, c := range cs {
			if ctx.Err() != nil {
				break
			}
			logf("case %s, run %d of %d", c.ID, i, repeat)
			r := s.RunCase(ctx, c, i)
			logf("case %s run %d: fired %v%s%s", c.ID, i, r.Fired, ifNotEmpty("; unjudged: ", r.Unjudged), ifNotEmpty("; error: ", r.Error))
			rep.Runs = append(rep.Runs, r)
		}
		if len(pairs) > 0 && ctx.Err() == nil {
			rep.Compares = append(rep.Compares, s.RunCompares(ctx, pairs, i)...)
		}
	}
}

// withCalibrations adds the sweeps the selected findings cases need and
// were not selected themselves, as calibrations only (not searched).
func withCalibrations(cs []Case, caps []CapCase) []CapCase {
	have := map[string]bool{}
	for _, c := range caps {
		have[c.ID] = true
	}
	for _, c := range cs {
		if c.Needs == "" || have[c.Needs] {
			continue
		}
		for _, k := range capacities() {
			if k.ID == c.Needs {
				k.calibrationOnly = true
				caps = append([]CapCase{k}, caps...)
				have[k.ID] = true
			}
		}
	}
	return caps
}

// scoredCaps are the capacity cases whose targets count: calibrations
// only measured for another case's load are not.
func scoredCaps(recs []CapRecord) []CapRecord {
	var out []CapRecord
	for _, r := range recs {
		if len(r.Searches) > 0 {
			out = append(out, r)
		}
	}
	return out
}
