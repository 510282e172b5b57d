package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CompareRecord is one compare pair of one repetition, gated as a CI job
// would gate it.
type CompareRecord struct {
	Case     string  `json:"case"`
	Rep      int     `json:"rep"`
	Slowdown float64 `json:"slowdown"`
	Change   bool    `json:"change"` // the truth: the second run's service is slower
	Judged   bool    `json:"judged"`
	// GateNotJudged: the gate itself said it could not judge the change
	// (exit 99 without a verdict on it), e.g. runs too noisy for the limit.
	GateNotJudged bool   `json:"gate_not_judged,omitempty"`
	Unjudged      string `json:"unjudged,omitempty"`
	Exit          int    `json:"exit"` // 99: the gate failed (a regression); 0: it passed
	Verdict       string `json:"verdict"`
	Output        string `json:"output"` // the compare table's last lines
	A, B          string `json:"-"`
	Error         string `json:"error,omitempty"`
}

// compareRun is one run of truthapp for a pair.
type compareRun struct {
	dir      string
	unjudged string
	err      error
}

// runForCompare runs truthapp slowed down by f under compareLoad.
func (s *Session) runForCompare(ctx context.Context, name string, rep int, f float64) compareRun {
	r := compareRun{dir: filepath.Join(s.Out, "compare", fmt.Sprint(rep), name)}
	if r.err = os.MkdirAll(r.dir, 0o755); r.err != nil {
		return r
	}
	load := compareLoad()
	if s.Quick {
		load = load.Shortened(0, 15*time.Second)
	}
	d := Deploy{Target: TargetTruthapp, App: AppOptions{Props: props("truth.fault.slowdown", strconv.FormatFloat(f, 'f', -1, 64))}}
	st, err := s.Lab.Up(ctx, d)
	if err != nil {
		r.err = err
		return r
	}
	defer st.Down()
	// Compared runs must be steady: after the short warm-up a fresh JVM's
	// per-second p50 still fell from 12 ms to 3.4 ms over the 40 s run (its
	// compiler at work), and the intervals of both runs spanned ±60 %. A few
	// thousand more requests first, at twice the compared rate.
	hold := 40 * time.Second
	if s.Quick {
		hold = 0
	}
	s.warmup(ctx, st, load.Scenarios, load.Start, 2, 0, hold)
	s.Lab.Meter.WaitQuiet(ctx, s.Busy, 3*time.Second, s.Wait)
	tf := TestFile{Name: "truth-" + name, BaseURL: st.Base, Load: load, SLO: defaultSLO, Targets: st.Targets, TracesListen: st.Traces}
	test := filepath.Join(r.dir, "test.yaml")
	if r.err = os.WriteFile(test, []byte(tf.YAML()), 0o644); r.err != nil {
		return r
	}
	t0 := time.Now()
	r.err = s.Lab.WithReceiver(st.Traces != "", func() error {
		_, _, err := s.Lab.LL.RunTest(ctx, r.dir, test)
		return err
	})
	if b := s.Lab.Meter.Window(t0, time.Now()); b.Mean >= s.Busy {
		r.unjudged = fmt.Sprintf("%s: other processes used %.2f cores on average", name, b.Mean)
	}
	if r.err == nil {
		r.dir, r.err = RunDir(r.dir)
	}
	return r
}

// RunCompares runs one repetition of every pair: one baseline, and per
// pair a second run on a freshly started service (the same one, or one
// slowed down), gated with `loadlens compare --fail-on-regression`.
func (s *Session) RunCompares(ctx context.Context, pairs []ComparePair, rep int) []CompareRecord {
	base := s.runForCompare(ctx, "baseline", rep, 1)
	var out []CompareRecord
	for _, p := range pairs {
		rec := CompareRecord{Case: p.ID, Rep: rep, Slowdown: p.Slowdown, Change: p.Change()}
		other := s.runForCompare(ctx, p.ID, rep, p.Slowdown)
		for _, r := range []compareRun{base, other} {
			switch {
			case r.err != nil && rec.Error == "":
				rec.Error = r.err.Error()
			case r.unjudged != "" && rec.Unjudged == "":
				rec.Unjudged = r.unjudged
			}
		}
		if rec.Error == "" {
			s.gate(ctx, &rec, base.dir, other.dir)
		}
		rec.Judged = rec.Error == "" && rec.Unjudged == "" && (rec.Exit == 0 || rec.Exit == 99)
		if rec.Error != "" && rec.Unjudged == "" {
			rec.Unjudged = "a run or the comparison failed"
		}
		logf("%s rep %d: compare exit %d (%s)%s", p.ID, rep, rec.Exit, rec.Verdict, ifNotEmpty(", unjudged: ", rec.Unjudged))
		out = append(out, rec)
	}
	return out
}

// notJudgedFails is the line compare prints when a gate it could not
// judge failed the comparison.
const notJudgedFails = "not judged fails"

// gate runs the comparison and reads its verdict from its exit code.
func (s *Session) gate(ctx context.Context, rec *CompareRecord, a, b string) {
	rec.A, rec.B = a, b
	dir := filepath.Dir(b)
	inv, err := s.Lab.LL.Exec(ctx, dir, "compare", "compare", a, b, "--fail-on-regression", gate)
	rec.Exit, rec.Output = inv.Exit, lastLines(inv.Stdout+inv.Stderr, 20)
	switch {
	case err != nil:
		rec.Error = err.Error()
	case inv.Exit == 0:
		rec.Verdict = "gate passed"
	case inv.Exit == 99 && strings.Contains(inv.Stdout+inv.Stderr, notJudgedFails):
		rec.Verdict, rec.GateNotJudged = "gate not judged (fails CI)", true
	case inv.Exit == 99:
		rec.Verdict = "gate failed: regression"
	default:
		rec.Verdict = fmt.Sprintf("compare exited %d", inv.Exit)
		rec.Error = rec.Verdict
	}
}
