package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// writeDoc writes docs/accuracy.md from a session's report.
func writeDoc(w io.Writer, r *Report) {
	fmt.Fprintf(w, "# Accuracy of loadlens's verdicts\n\n")
	fmt.Fprintf(w, "Written by `go run ./bench/truth` (bench/truth/run.sh): issue 20's catalogue of labelled cases on\n"+
		"real services, each started by the harness on loopback, scored against ground truth measured apart\n"+
		"from loadlens's analysis (the labels; a fixed-rate sweep by the harness's own client judged on the\n"+
		"servers' own counts). A run during which other processes used more than %s is **unjudged**:\n"+
		"counted and shown, never scored as correct. Targets: precision ≥ %s and recall ≥ %s per rule;\n"+
		"capacity within ±%s of the sweep; compare ≤ %s false positives and ≤ %s false negatives at\n"+
		"20 %%; estimate's instances within ±%d of the sweep's.\n\n",
		units.Cores(r.Busy), units.Number(targetPrecision), units.Number(targetRecall), units.Share(targetCapacityPct/100),
		units.Share(targetCompareFP), units.Share(targetCompareFN), targetEstimateOff)
	m := r.Machine
	fmt.Fprintf(w, "| | |\n|---|---|\n| date | %s |\n| commit | %s |\n| machine | %s, %s, %s CPUs, Linux %s |\n"+
		"| CPU limits | %s |\n| layout | %s |\n| repetitions | %d per case |\n| wall time | %s |\n"+
		"| other processes | %s on average over the session, at most %s |\n\n",
		r.Date.UTC().Format("2006-01-02 15:04 MST"), r.Commit, m.Host, m.CPU, units.Count(int64(m.CPUs)), m.Kernel,
		m.CPUMode, m.Layout, r.Repeat, units.Duration(time.Duration(r.WallS*float64(time.Second)).Round(time.Second)),
		units.Cores(r.Other.Mean), units.Cores(r.Other.Max))
	if r.Sessions > 1 {
		fmt.Fprintf(w, "Joined from %s sessions by `-merge`: each ran the same tested code (loadlens, its modules and this\n"+
			"harness: fingerprint `%s`), so their repetitions count as one catalogue; the wall time is their sum.\n\n",
			units.Count(int64(r.Sessions)), r.Tested)
	}
	writeMisses(w, r.Misses)
	writeRules(w, r.Rules)
	writeCases(w, r.Cases)
	writeBusy(w, r.BusyNamed)
	writeCapacity(w, r.Caps)
	writeCompare(w, r.CmpScore)
	fmt.Fprintf(w, "Raw results (every run's findings, the sweeps' steps, the searches, the comparisons) are in\n"+
		"`results.json` of the run's `-out` directory, beside each run's test file and loadlens's run directory.\n")
}

func writeMisses(w io.Writer, misses []string) {
	if len(misses) == 0 {
		fmt.Fprintf(w, "**Every target met.**\n\n")
		return
	}
	fmt.Fprintf(w, "**Targets missed (%s):**\n\n", units.Count(int64(len(misses))))
	for _, m := range misses {
		fmt.Fprintf(w, "- %s\n", m)
	}
	fmt.Fprintln(w)
}

// ratio writes a share, or "-" when it has no value.
func ratio(r Ratio) string {
	if math.IsNaN(float64(r)) {
		return "-"
	}
	return units.Number(math.Round(float64(r)*100) / 100)
}

func writeRules(w io.Writer, rules []RuleScore) {
	fmt.Fprintf(w, "## Findings, per rule\n\nPrecision: of the judged runs in which a finding of the kind fired (warning or critical),\n"+
		"those in a case that lists it under *must* or *may*. Recall: of the judged runs of the cases that list the rule\n"+
		"(or alternatives) under *must*, those in which it fired. Unjudged: runs of those cases the host was too busy for.\n"+
		"Premise not met: runs of those cases in which the harness's own measure found the fault absent (e.g. GC pauses\n"+
		"under %s of the hold's wall time): neither a hit nor a miss.\n\n", units.Share(gcPremise))
	fmt.Fprintf(w, "| rule | fired | precision | must runs | recall | unjudged | premise not met | target |\n|---|--:|--:|--:|--:|--:|--:|---|\n")
	for _, r := range rules {
		verdict := "met"
		if len(r.Misses) > 0 {
			verdict = "**missed**"
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", r.Rule, units.Count(int64(r.Fired)), ratio(r.Precision),
			units.Count(int64(r.MustRuns)), ratio(r.Recall), units.Count(int64(r.Unjudged)), units.Count(int64(r.NoPremise)), verdict)
	}
	fmt.Fprintln(w)
}

func writeCases(w io.Writer, cases []CaseScore) {
	fmt.Fprintf(w, "## Findings, per case\n\n| case | fault | must | runs | judged | must met | clean | fired though not listed |\n|---|---|---|--:|--:|--:|--:|---|\n")
	for _, c := range cases {
		var un []string
		for r, n := range c.Unexpected {
			un = append(un, fmt.Sprintf("`%s` ×%d", r, n))
		}
		sort.Strings(un)
		extra := ""
		if c.Errors > 0 {
			extra = fmt.Sprintf(" (%s could not be run)", units.CountOf(int64(c.Errors), "run", "runs"))
		}
		if c.NoPremise > 0 {
			extra += fmt.Sprintf(" (premise not met in %s)", units.CountOf(int64(c.NoPremise), "run", "runs"))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s%s | %s | %s | %s | %s |\n", c.Case, c.Fault, c.Must, units.Count(int64(c.Runs)), extra,
			units.Count(int64(c.Judged)), units.Count(int64(c.MustMet)), units.Count(int64(c.Silent)), strings.Join(un, ", "))
	}
	fmt.Fprintf(w, "\n*Must met*: judged runs in which every must item fired. *Clean*: judged runs in which nothing fired that the case does not list.\n\n")
}

func writeBusy(w io.Writer, b BusyAgreement) {
	if b.Unjudged == 0 {
		return
	}
	fmt.Fprintf(w, "Of the %s the harness found too busy to judge, loadlens itself named the busy host (`generator-host-busy` or\n"+
		"`target-host-busy`, warning or critical) in %s.\n\n", units.CountOf(int64(b.Unjudged), "run", "runs"), units.Count(int64(b.Named)))
}

func writeCapacity(w io.Writer, caps []CapRecord) {
	if len(caps) == 0 {
		return
	}
	fmt.Fprintf(w, "## Capacity and estimate\n\nTrue capacity: the highest rate the harness's own client held (p95 from the intended start\n"+
		"≤ the SLO's, errors by the server's own count ≤ 1 %%), raised ×1.5 then bisected to ≤ 5 %%, a failing step\n"+
		"confirmed by a second. Each `loadlens capacity` search (same start, same step hold) is scored against it; when\n"+
		"loadlens's rate is above it, the harness's client runs that rate once more on the now warmer target, and a\n"+
		"rate it sees hold is the capacity scored against (the error column says so). Then `loadlens estimate --rps X --from-run\n"+
		"<search>` with X = %s × the true capacity against ceil(X / true capacity).\n\n", units.Number(estimateFactor))
	fmt.Fprintf(w, "| case | true capacity | sweep steps | search | loadlens | error | estimate (want) | judged |\n|---|--:|--:|--:|--:|--:|--:|---|\n")
	for _, c := range caps {
		truth := units.Rate(c.Truth, "req")
		if c.Truth <= 0 {
			truth = "not determined"
		}
		if c.Unjudged != "" || c.Error != "" {
			truth += " (" + strings.TrimSpace(c.Unjudged+" "+c.Error) + ")"
		}
		if len(c.Searches) == 0 {
			fmt.Fprintf(w, "| %s | %s | %d | - | - | - | - | - |\n", c.Case, truth, len(c.Sweep))
		}
		for _, s := range c.Searches {
			judged := "yes"
			if !s.Judged {
				judged = "no: " + s.Unjudged
			}
			est := "none"
			if s.EstimateGot > 0 {
				est = units.Count(int64(s.EstimateGot))
			}
			errCell := units.Change(s.ErrorPct / 100)
			if s.Recheck != nil {
				errCell += fmt.Sprintf(" (recheck at loadlens's rate: p95 %s, holds %v)", units.Duration(s.Recheck.Client.P95), s.Recheck.Holds)
			}
			fmt.Fprintf(w, "| %s | %s | %d | %d | %s (%s) | %s | %s (%d) | %s |\n", c.Case, truth, len(c.Sweep), s.Rep,
				units.Rate(s.Outcome.Highest, "req"), s.Outcome.Stop, errCell, est, s.EstimateWant, judged)
		}
	}
	fmt.Fprintln(w)
}

func writeCompare(w io.Writer, cs []CompareScore) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "## Compare gate\n\n`loadlens compare baseline run --fail-on-regression '%s'` on pairs of truthapp runs (each on a freshly\n"+
		"started service; the second slowed down by `truth.fault.slowdown`). A false positive is a failed gate between two\n"+
		"runs of the same service; a false negative a passed gate on a slower one. \"gate not judged\": the gate said its runs could not\n"+
		"decide (exit 99, so a CI job stops, with the reason): neither a pass nor a verdict, counted apart.\n\n", gate)
	fmt.Fprintf(w, "| pair | change | runs | judged | gate failed | gate passed | gate not judged | false positives | false negatives | unjudged |\n|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, c := range cs {
		fmt.Fprintf(w, "| %s | %v | %d | %d | %d | %d | %d | %s | %s | %d |\n", c.Case, c.Change, c.Runs, c.Judged, c.Failed, c.Passed,
			c.GateNotJudged, ratio(c.FPRate), ratio(c.FNRate), c.Unjudged+c.Errored)
	}
	fmt.Fprintln(w)
}
