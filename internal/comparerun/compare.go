package comparerun

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
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
// the comparison; it returns ExitThresholdFailed when a regression gate
// fails, and ExitNotJudged when none did but one could not judge.
func Compare(cfg CompareConfig) (int, error) {
	groups, err := compareGroups(cfg.Runs)
	if err != nil {
		return app.ExitBadInput, err
	}
	gates, err := compare.ParseGates(cfg.Gates)
	if err != nil {
		return app.ExitBadInput, fmt.Errorf("--fail-on-regression: %w", err)
	}
	switch cfg.Format {
	case "", "text", "md", "markdown", "json", "html":
	default:
		return app.ExitBadInput, fmt.Errorf("--format %q: want text, md, json or html", cfg.Format)
	}
	inputs := make([][]compare.Input, len(groups))
	for g, paths := range groups {
		for _, path := range paths {
			in, err := compareInput(path)
			if err != nil {
				return app.ExitCodeOf(err), err
			}
			inputs[g] = append(inputs[g], in)
		}
	}
	rep, err := compare.CompareGroups(inputs, cfg.Options)
	if err != nil {
		return app.ExitRunFailed, err
	}
	if err := rep.GateEndpoints(gates); err != nil {
		return app.ExitBadInput, fmt.Errorf("--fail-on-regression: %w", err) // before the report: as a gate that does not parse
	}
	if len(gates) > 0 {
		rep.Gates = rep.Check(gates)
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
		return app.ExitRunFailed, err
	}
	if len(gates) == 0 {
		return app.ExitOK, nil
	}
	w := cfg.Out
	if cfg.Format == "json" || cfg.Format == "html" {
		w = os.Stderr // the document on stdout holds them; stdout stays parseable
	}
	fmt.Fprint(w, gateLines(rep.Gates, cfg.AllowNotJudged))
	return gateExit(rep.Gates, cfg.AllowNotJudged), nil
}

// gateExit is the exit code of the gates: ExitThresholdFailed when one
// found a regression, whatever others could not judge; ExitNotJudged when
// none did and one could not judge (unless allowed); else ExitOK.
func gateExit(results []compare.GateResult, allowNotJudged bool) int {
	switch {
	case compare.AnyRegressed(results):
		return app.ExitThresholdFailed
	case !allowNotJudged && compare.AnyNotJudged(results):
		return app.ExitNotJudged
	}
	return app.ExitOK
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
		b.WriteString(units.Wrap("✗ not judged fails (exit 3 when no gate found a regression): the gate could not judge the change (the reason above), and a gate that passes what it cannot test is no gate; run longer, more runs a side or on a quiet host, gate on a figure the runs resolve, or pass --allow-not-judged to let it pass.", units.Columns, "", "  "))
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
	db := app.RunDB(path)
	rd, err := app.OpenRun(db)
	if err != nil {
		return compare.Input{}, err
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		return compare.Input{}, err
	}
	in := compare.Input{Name: filepath.Base(filepath.Dir(db)), Run: run,
		Snapshots: func(fn func(*metrics.Snapshot) error) error { return app.ReadSnapshots(db, fn) }}
	if in.Tags, err = app.RunTags(rd.Meta()); err != nil {
		return compare.Input{}, fmt.Errorf("%s: %w", db, err)
	}
	in.Holds, in.Note = app.StoredHolds(rd.Meta())
	in.Note = joinNotes(unfinishedNote(rd.Finish()), in.Note)
	set, err := rd.Series()
	if err != nil {
		return compare.Input{}, err
	}
	in.HostSteal = hostSteal(set)
	in.Instances = instances(set)
	return in, nil
}

// instances counts the targets the run scraped, by role: each scrape
// records an up series with its target and role labels.
func instances(set series.Set) map[string]int {
	seen := map[[2]string]bool{}
	out := map[string]int{}
	for _, s := range set.Find("up") {
		role, target := s.Label("role"), s.Label("target")
		if role == "" || target == "" || seen[[2]string{role, target}] {
			continue
		}
		seen[[2]string{role, target}] = true
		out[role]++
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// hostSteal is the share of the generator's host CPU time stolen in each
// second the run recorded it (its steal cores over its CPUs), or nil.
func hostSteal(set series.Set) map[int]float64 {
	steal, cpus := set.Find(diagnose.HostSteal), set.Find(diagnose.HostCPUs)
	if len(steal) != 1 || len(cpus) != 1 {
		return nil // none recorded, or an agents' run (their hosts are not the coordinator's)
	}
	n := map[int]float64{}
	for _, p := range cpus[0].Points {
		n[p.Sec] = p.Value
	}
	out := map[int]float64{}
	for _, p := range steal[0].Points {
		if n[p.Sec] > 0 {
			out[p.Sec] = p.Value / n[p.Sec]
		}
	}
	return out
}

// unfinishedNote warns of a run that did not complete, as `runs` shows it:
// a killed run (no end recorded: incomplete) or one stopped early lacks
// its last seconds, and its steady part may be cut short.
func unfinishedNote(fin store.Finish, ended bool) string {
	switch {
	case !ended || fin.Status == app.StatusIncomplete:
		return "warning: incomplete — the run did not finish (killed, or its end was not recorded): its last seconds are missing and its hold may be cut short"
	case fin.Status != app.StatusCompleted:
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
