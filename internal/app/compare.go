package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// CompareConfig is what `loadlens compare` needs.
type CompareConfig struct {
	// Runs are run directories (or run.db files): the baseline first, then
	// the runs to compare with it; or groups of runs of the same test
	// separated by "vs" (A1 A2 A3 vs B1 B2 B3), taken as replicates.
	Runs    []string
	Format  string // text, md, json or html
	Out     io.Writer
	Options compare.Options
	Gates   []string // --fail-on-regression expressions
	// AllowNotJudged lets a gate that could not judge its change (not
	// testable, a disturbed generator) pass with a note; without it such
	// a gate fails, saying how long a run would let it judge.
	AllowNotJudged bool
}

// groupSeparator separates groups of runs in CompareConfig.Runs.
const groupSeparator = "vs"

// Compare compares runs (or groups of runs) against the first and prints
// the comparison; it returns ExitThresholdFailed when a regression gate fails.
func Compare(cfg CompareConfig) (int, error) {
	groups, err := compareGroups(cfg.Runs)
	if err != nil {
		return ExitBadInput, err
	}
	gates, err := compare.ParseGates(cfg.Gates)
	if err != nil {
		return ExitBadInput, fmt.Errorf("--fail-on-regression: %w", err)
	}
	switch cfg.Format {
	case "", "text", "md", "markdown", "json", "html":
	default:
		return ExitBadInput, fmt.Errorf("--format %q: want text, md, json or html", cfg.Format)
	}
	inputs := make([][]compare.Input, len(groups))
	for g, paths := range groups {
		for _, path := range paths {
			in, err := compareInput(path)
			if err != nil {
				return ExitCodeOf(err), err
			}
			inputs[g] = append(inputs[g], in)
		}
	}
	rep, err := compare.CompareGroups(inputs, cfg.Options)
	if err != nil {
		return ExitRunFailed, err
	}
	switch cfg.Format {
	case "", "text":
		err = report.WriteCompareText(cfg.Out, rep)
	case "md", "markdown":
		err = report.WriteCompareMarkdown(cfg.Out, rep)
	case "json":
		err = compare.WriteJSON(cfg.Out, rep)
	case "html":
		err = report.WriteCompareHTML(cfg.Out, rep)
	}
	if err != nil {
		return ExitRunFailed, err
	}
	if len(gates) == 0 {
		return ExitOK, nil
	}
	results := rep.Check(gates)
	w := cfg.Out
	if cfg.Format == "json" || cfg.Format == "html" {
		w = os.Stderr // keep the document on stdout parseable
	}
	fmt.Fprint(w, gateLines(results, cfg.AllowNotJudged))
	if compare.AnyFailed(results, cfg.AllowNotJudged) {
		return ExitThresholdFailed, nil
	}
	return ExitOK, nil
}

// gateLines writes the judged gates, each wrapped to units.Columns under
// its mark: ✓ passed, ✗ failed, ? not judged and allowed (its change not
// testable, a baseline of failures, a load generator disturbed), which
// fails unless --allow-not-judged.
func gateLines(results []compare.GateResult, allowNotJudged bool) string {
	var b strings.Builder
	b.WriteString("\nregression gates:\n")
	notJudged := false
	for _, g := range results {
		mark := "✓"
		switch {
		case g.Failed, g.NotJudged && !allowNotJudged:
			mark = "✗"
		case g.NotJudged:
			mark = "?"
		}
		notJudged = notJudged || g.NotJudged
		b.WriteString(units.Wrap(g.Gate.String()+units.Keep+units.Keep+g.Run+": "+g.Reason, units.Columns, "  "+mark+" ", "      "))
	}
	switch {
	case notJudged && !allowNotJudged:
		b.WriteString(units.Wrap("✗ not judged fails: the gate could not judge the change (the reason above), and a gate that passes what it cannot test is no gate; run longer, more runs a side or on a quiet host, gate on a figure the runs resolve, or pass --allow-not-judged to let it pass.", units.Columns, "", "  "))
	case notJudged:
		b.WriteString(units.Wrap("? not judged: the gate could not judge the change (the reason above), and passes as --allow-not-judged asks (exit 0).", units.Columns, "", "  "))
	}
	return b.String()
}

// compareGroups splits the run arguments into groups at each "vs"; without
// one, every run is a group of its own (the baseline, then each run
// compared with it).
func compareGroups(args []string) ([][]string, error) {
	if !slices.Contains(args, groupSeparator) {
		if len(args) < 2 {
			return nil, errors.New("compare needs at least two runs: a baseline and one to compare with it (or A1 A2 vs B1 B2)")
		}
		groups := make([][]string, len(args))
		for i, a := range args {
			groups[i] = []string{a}
		}
		return groups, nil
	}
	var groups [][]string
	var cur []string
	for i, a := range append(slices.Clone(args), groupSeparator) {
		if a != groupSeparator {
			cur = append(cur, a)
			continue
		}
		if len(cur) == 0 {
			return nil, fmt.Errorf("compare: %q at argument %d has no runs on one side (write A1 A2 vs B1 B2)", groupSeparator, min(i+1, len(args)))
		}
		groups, cur = append(groups, cur), nil
	}
	return groups, nil
}

// compareInput reads one run for compare: its run model, its stored
// seconds, and the holds of its test's stages.
func compareInput(path string) (compare.Input, error) {
	db := runDB(path)
	rd, err := openRun(db)
	if err != nil {
		return compare.Input{}, err
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		return compare.Input{}, err
	}
	in := compare.Input{Name: filepath.Base(filepath.Dir(db)), Run: run,
		Snapshots: func(fn func(*metrics.Snapshot) error) error { return readSnapshots(db, fn) }}
	in.Holds, in.Note = storedHolds(rd.Meta())
	in.Note = joinNotes(unfinishedNote(rd.Finish()), in.Note)
	return in, nil
}

// storedHolds returns the holds of a run's schedule, kept in its meta or
// found by parsing its test again, and a note when that failed.
func storedHolds(meta store.Meta) ([]compare.Hold, string) {
	if enc, ok := meta.Extra[holdsKey]; ok {
		return decodeHolds(enc), ""
	}
	if len(meta.TestSource) == 0 {
		return nil, ""
	}
	// a run recorded before its holds were kept: parse its test again
	p, err := plan.Parse(meta.TestFile, meta.TestSource, lenientEnv)
	if err != nil {
		return nil, fmt.Sprintf("its test did not parse again (%v), so its steady part is looked for in the data", firstLine(err.Error()))
	}
	return holdsOf(p), ""
}

// unfinishedNote warns of a run that did not complete, as `runs` shows it:
// a killed run (no end recorded: incomplete) or one stopped early lacks
// its last seconds, and its steady part may be cut short.
func unfinishedNote(fin store.Finish, ended bool) string {
	switch {
	case !ended || fin.Status == StatusIncomplete:
		return "warning: incomplete — the run did not finish (killed, or its end was not recorded): its last seconds are missing and its hold may be cut short"
	case fin.Status != StatusCompleted:
		return fmt.Sprintf("warning: %s — the run stopped before its test's end: its hold may be cut short", fin.Status)
	}
	return ""
}

// joinNotes joins two notes with "; ", skipping empty ones.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// holdsKey is the run.db meta key of the holds of a run's schedule, kept at
// the start of the run: the stored test cannot always be parsed again, as
// its -e values are redacted (a BASE_URL or a HOLD given with -e).
const holdsKey = "holds"

func encodeHolds(h []compare.Hold) string {
	b, _ := json.Marshal(h) // plain numbers cannot fail to marshal
	return string(b)
}

func decodeHolds(s string) []compare.Hold {
	var h []compare.Hold
	if json.Unmarshal([]byte(s), &h) != nil {
		return nil
	}
	return h
}

// lenientEnv reads the environment and lets an unset variable be empty: a
// comparison needs the test's stages, not the values it was run with.
func lenientEnv(name string) (string, bool) {
	if v, ok := os.LookupEnv(name); ok {
		return v, true
	}
	return "", true
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

// holdsOf returns the stretches of a test's schedule over which every
// scenario holds its load constant, as whole seconds of the run: the first
// second after a change of load plus the warm-up (compare.WarmUp), to the
// last second that ends before the next change. Their load is the
// scheduled one — VUs when every scenario is closed, offered requests per
// second (rate × requests per iteration) when every one is open — and 0
// for a mix, which compare measures instead. A test with an iterations
// scenario has no schedule to hold.
func holdsOf(p *plan.Plan) []compare.Hold {
	type edge = time.Duration
	var cuts []edge
	closed, open := 0, 0
	for _, s := range p.Scenarios {
		switch s.Load.Model {
		case plan.Iterations:
			return nil
		case plan.VUs:
			closed++
		default:
			open++
		}
		at := s.StartTime
		cuts = append(cuts, at)
		for _, st := range s.Load.Stages {
			at += st.Duration
			cuts = append(cuts, at)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	// level is each scenario's load just after (or just before) t.
	level := func(t edge, before bool) []float64 {
		out := make([]float64, len(p.Scenarios))
		for i, s := range p.Scenarios {
			off := t - s.StartTime
			if before {
				off -= time.Nanosecond
			}
			if off < 0 || off >= s.Load.Duration() {
				continue
			}
			if s.Load.Model == plan.VUs {
				out[i] = float64(plan.VUsAt(&s.Load, off))
			} else {
				out[i] = plan.RateAt(&s.Load, off) * float64(requestsPerIteration(s))
			}
		}
		return out
	}
	type span struct {
		from, to edge
		at       []float64
	}
	var spans []span
	for i := 0; i+1 < len(cuts); i++ {
		a, b := level(cuts[i], false), level(cuts[i+1], true)
		if !slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }) {
			continue // a ramp
		}
		if n := len(spans); n > 0 && spans[n-1].to == cuts[i] && slices.Equal(spans[n-1].at, a) {
			spans[n-1].to = cuts[i+1]
			continue
		}
		spans = append(spans, span{cuts[i], cuts[i+1], a})
	}
	var out []compare.Hold
	for _, s := range spans {
		var total float64
		for _, v := range s.at {
			total += v
		}
		if total <= 0 {
			continue
		}
		first := int(math.Ceil(s.from.Seconds()))
		last := int(math.Floor(s.to.Seconds())) - 1
		if last < first {
			continue
		}
		first += compare.WarmUp(last - first + 1)
		if last < first {
			continue
		}
		h := compare.Hold{First: first, Last: last}
		if closed == 0 || open == 0 {
			h.Load = total
		}
		out = append(out, h)
	}
	return out
}

// requestsPerIteration counts the requests one iteration of a scenario sends.
func requestsPerIteration(s *plan.Scenario) int {
	n := 0
	for _, st := range s.Flow {
		if st.Kind == plan.RequestStep {
			n++
		}
	}
	return max(n, 1)
}

// runDB returns the run.db of a run directory, or path itself.
func runDB(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, "run.db")
	}
	return path
}

func readRun(db string) (*metrics.Run, error) {
	rd, err := openRun(db)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.Run()
}

// readSnapshots hands every stored second of a run.db to fn, in order.
func readSnapshots(db string, fn func(*metrics.Snapshot) error) error {
	rd, err := openRun(db)
	if err != nil {
		return err
	}
	defer rd.Close()
	return rd.Snapshots(fn)
}
