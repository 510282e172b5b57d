package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// WriteText writes the end-of-run summary for a terminal or a CI log.
func WriteText(w io.Writer, in *Input) error {
	var sb strings.Builder
	r := in.Run
	tot := r.Total()
	el := r.Elapsed()
	state := " · " + in.Status + " in " + units.Duration(el)
	fmt.Fprintf(&sb, "\n  %s%s\n", units.Middle(in.Name, units.Columns-2-utf8.RuneCountInString(state)), state)
	var iters int64
	var vusMax int64
	for _, s := range r.Scenarios {
		iters += s.Iterations
		vusMax += s.VUsMaxAllocated
	}
	// The peak of the seconds' sums, as summary.json's vus.max: scenarios'
	// own peaks need not have come at once.
	_, _, busyMax := r.VUs()
	totals := []string{withRate(runUnit(r).Count(tot.Requests), runRate(r)) + unitSplit(r, ": ", ""),
		units.Percent(ratio(failed(&tot), tot.Requests)) + " failed", units.CountOf(iters, "iteration", "iterations"),
		units.Count(in.Dropped()) + " dropped", "up to " + vusPhrase(vusMax, busyMax), units.Bytes(tot.Received) + " received", units.Bytes(tot.Sent) + " sent"}
	if n := tot.Redirects; n > 0 { // the target got these beyond the requests counted (docs/figures.md)
		totals = append(totals[:1], append([]string{units.CountOf(n, "redirect", "redirects") + " followed"}, totals[1:]...)...)
	}
	for i, t := range totals { // a line breaks between the totals, not inside one
		totals[i] = strings.ReplaceAll(t, " ", units.Keep)
	}
	// The "·" stays at the end of a line, so that the next line does not start with it.
	sb.WriteString(wrap(strings.Join(totals, units.Keep+"· "), units.Columns, "  ", "    ") + "\n")

	writeEndpoints(&sb, in)
	writeGroups(&sb, in)
	writeSessions(&sb, in)
	writeCustom(&sb, in)
	writeAgents(&sb, in)
	writeFailures(&sb, in)
	writeChecks(&sb, in)
	writeThresholds(&sb, in)
	writeTraces(&sb, in)
	writeFindings(&sb, in)
	for _, n := range in.Notices {
		sb.WriteString(wrap(n, units.Columns, "  note: ", "    "))
	}
	if w := droppedWarning(in); w != "" {
		sb.WriteString(wrap(w, units.Columns, "  ! ", "    "))
	}
	accounting := append(Accounting(in), OutputWarnings(in)...)
	for _, a := range accounting {
		sb.WriteString(wrap(a, units.Columns, "  ! ", "    "))
	}
	if len(in.Notices) > 0 || in.Dropped() > 0 || len(accounting) > 0 {
		sb.WriteString("\n")
	}
	if line := failedText(failed(&tot), tot.Requests, runUnit(in.Run), len(in.Results) > 0 || in.ExitCode != 0); line != "" {
		sb.WriteString(wrap(line, units.Columns, "  ", "    "))
	}
	if line := verdictLine(in); line != "" {
		sb.WriteString(wrap(line, units.Columns, "  ", "    "))
	}
	if in.Dir != "" {
		sb.WriteString(PathLine("results", in.Dir))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// failedBar is the share of failed requests past which a run without
// thresholds is told that it still exits 0: the limit of the threshold
// the line suggests, so the run it speaks of would fail that threshold.
const failedBar = 0.01

// failedText is the line after the findings about failed requests: every
// one failed (allFailedText), or, in a run that exits 0 without
// thresholds (quiet false), failedBar or more of them; "" otherwise.
func failedText(n, total int64, u units.Unit, quiet bool) string {
	switch {
	case total == 0 || n == 0:
		return ""
	case n == total:
		return allFailedText(total, u, quiet)
	case quiet || float64(n) < failedBar*float64(total):
		return ""
	}
	return fmt.Sprintf("FAILURES: %s of %s failed (%s). %s", units.Count(n), u.Or().Count(total),
		units.Percent(float64(n)/float64(total)), noThresholdsHint)
}

// noThresholdsHint is why a run without thresholds exits 0 whatever
// failed (as k6's does), and the line that makes it fail CI.
const noThresholdsHint = "No thresholds were set, so the exit code is still 0; set one (in URL mode --threshold 'http_req_failed: rate<0.01'; in a test file, thresholds: {http_req_failed: [\"rate<0.01\"]}) to fail CI."

// allFailedText says plainly that no request (call, session: u)
// succeeded, and, for a run that exits 0 without thresholds (as k6's
// does), why and how to fail CI; quiet is false only then.
func allFailedText(n int64, u units.Unit, quiet bool) string {
	s := "ALL FAILED: " + everyRequest(n, u) + " failed."
	if !quiet {
		s += " " + noThresholdsHint
	}
	return s
}

// verdictLine is the summary's last word on the run: PASS or FAIL for a
// run that ran to its end, and for one that did not, how it ended and
// the exit code that follows, never PASS; "" for a completed run without
// thresholds.
func verdictLine(in *Input) string {
	n := int64(len(in.Results))
	failedN := int64(0)
	for _, res := range in.Results {
		if !res.Pass {
			failedN++
		}
	}
	judged := ""
	switch {
	case n == 0:
	case failedN == 0:
		judged = units.Plural(n, "its threshold passed", "all "+units.CountOf(n, "threshold", "thresholds")+" passed")
	default:
		judged = fmt.Sprintf("%d of %s failed", failedN, units.CountOf(n, "threshold", "thresholds"))
	}
	// "the run's": also true when loadlens summary reprints it.
	exit := fmt.Sprintf(" (the run's exit code: %d)", in.ExitCode)
	if in.ExitCode == history.NoExitCode {
		exit = "" // a killed run exited with no code of its own
	}
	// A completed run exits 1 when one of its outputs could not be written (app.ExitAfter).
	unwritten := ""
	if in.ExitCode > 0 {
		unwritten = "; an output could not be written" + exit
	}
	switch v := Verdict(in); v {
	case VerdictNoThresholds:
		if unwritten != "" {
			return "An output could not be written" + exit
		}
		return ""
	case VerdictPass:
		return "PASS: " + units.Plural(n, "1 threshold", "all "+units.CountOf(n, "threshold", "thresholds")) + " passed" + unwritten
	case VerdictFail:
		line := "FAIL: " + judged
		if why := in.GateNote(); why != "" && failedN == 0 {
			line = "FAIL: " + why + ", though " + judged
		} else if why != "" {
			line += ", and " + why
		}
		if in.Status == "aborted" {
			return line + "; abort_on_fail stopped the run" + exit
		}
		return line
	case VerdictInterrupted, VerdictRunFailed, VerdictIncomplete, VerdictAborted, VerdictPartial:
		line := v + ": " + howItEnded(in, v)
		if judged != "" {
			line += "; on what ran, " + judged
		}
		if why := in.GateNote(); why != "" { // why a passing threshold still exits 99
			line += "; " + why
		}
		return line + exit
	}
	return ""
}

// verdictHow says how a run that did not run to its end ended, by verdict:
// the summary's verdict line and JUnit's failing case say the same.
var verdictHow = map[string]string{VerdictInterrupted: "stopped before its end (Ctrl-C or SIGTERM)", VerdictRunFailed: "an error stopped the run",
	VerdictIncomplete: "the results are not all kept", VerdictAborted: "abort_on_fail stopped the run",
	VerdictPartial: "an agent was lost, so the planned load was not all delivered"}

// killedHow is how a run read back without a recorded end ended: its
// process was killed (SIGKILL, an OOM kill) or its machine stopped.
const killedHow = "the run did not finish (killed, or its machine stopped, before its own summary; or it is still running): run.db recorded no end and no exit code"

// howItEnded is verdictHow's words for a run that did not run to its end,
// a killed one's (no exit code recorded) apart from an incomplete one's.
func howItEnded(in *Input, v string) string {
	if v == VerdictIncomplete && in.ExitCode == history.NoExitCode {
		return killedHow
	}
	return verdictHow[v]
}

func failed(e *metrics.EndpointTotal) int64 {
	var n int64
	for _, f := range e.Failures {
		n += f
	}
	return n
}

// endpointLabel names an endpoint, with its scenario when there are several.
func endpointLabel(r *metrics.Run, id int) string {
	ep := r.Layout.Endpoints[id]
	name := ep.Name
	if ep.Group != "" { // the same request in two groups is two rows
		name = ep.Group + " · " + name
	}
	if len(r.Layout.Scenarios) > 1 {
		return r.Layout.Scenarios[ep.Scenario].Name + " · " + name
	}
	return name
}

func writeEndpoints(sb *strings.Builder, in *Input) {
	count, rate := countHeadsText(runUnit(in.Run))
	rows := [][]string{{"ENDPOINT", count, "ACTIVE", rate, "ERR%", "MIN", "AVG", "P50", "P90", "P95", "P99", "MAX"}}
	row := func(s endpointStats) []string {
		out := []string{s.Name, units.Count(s.Requests), activeText(s), rateText(s), units.Percent(s.errorRate())}
		for _, d := range s.latencies() {
			if !s.Latency {
				out = append(out, "-")
				continue
			}
			out = append(out, units.Duration(d))
		}
		return out
	}
	eps, all := endpointTable(in.Run)
	for _, s := range eps {
		rows = append(rows, row(s))
	}
	if all != nil {
		rows = append(rows, row(*all))
	}
	table(sb, "  ", "mrrrrrrrrrrr", rows)
	sb.WriteString(wrap(rateNote(in.Run, rate, count, "ACTIVE"), units.Columns, "  ", "  "))
	sb.WriteString("\n")
}

func writeFailures(sb *strings.Builder, in *Input) {
	rows := [][]string{{"FAILURES", "COUNT", "ENDPOINT", "SECONDS", "SAMPLE"}}
	for i := range in.Run.Endpoints {
		for _, g := range in.Run.Endpoints[i].Errors {
			said := saidLines(g)
			first := ""
			if len(said) > 0 {
				first, said = said[0], said[1:]
			}
			rows = append(rows, []string{g.Kind.String(), units.Count(g.Count), endpointLabel(in.Run, i),
				units.Span(g.First, g.Last), first})
			for _, l := range said {
				rows = append(rows, []string{"", "", "", "", l})
			}
		}
	}
	if len(rows) > 1 {
		table(sb, "  ", "lrmlw", rows) // the sample takes what the row leaves of units.Columns
		sb.WriteString("\n")
	}
}

func writeChecks(sb *strings.Builder, in *Input) {
	if len(in.Run.Checks) == 0 {
		return
	}
	rows := [][]string{{"CHECKS", "PASSED", "✓", "✗"}}
	for i, c := range in.Run.Checks {
		info := in.Run.Layout.Checks[i]
		mark, _ := checkMark(c)
		name := mark + " " + info.Name
		if ep := int(info.Endpoint); ep >= 0 && ep < len(in.Run.Layout.Endpoints) {
			name += "  (" + endpointLabel(in.Run, ep) + ")"
		}
		rows = append(rows, []string{name, checkRate(c), units.Count(c.Passes), units.Count(c.Fails)})
	}
	table(sb, "  ", "mrrr", rows)
	sb.WriteString("\n")
}

// writeFindings prints the diagnosis: each bottleneck with its evidence, or
// the statement of what was checked when none was found.
func writeFindings(sb *strings.Builder, in *Input) {
	switch {
	case len(in.Findings) > 0:
		_ = writeFindingsAt(sb, in.Findings, "  ") // a strings.Builder does not fail
		sb.WriteString("\n")
		if in.Healthy != nil {
			sb.WriteString(wrap(HealthyText(in.Healthy), units.Columns, "  ", "    ") + "\n")
		}
	case in.Healthy != nil:
		sb.WriteString(wrap(HealthyText(in.Healthy), units.Columns, "  ", "    ") + "\n")
	}
}

func writeThresholds(sb *strings.Builder, in *Input) {
	if len(in.Results) == 0 {
		return
	}
	rows := [][]string{{"THRESHOLDS", "", "OBSERVED"}}
	for i, res := range in.Results {
		mark := "✓"
		if !res.Pass {
			mark = "✗"
		}
		obs := Observed(&in.Thresholds[i], res)
		if res.Aborted {
			obs += "  (stopped the run)"
		}
		rows = append(rows, []string{mark + " " + res.Key, res.Expr, obs})
	}
	table(sb, "  ", "mlW", rows) // an observed text wraps in its column, never past units.Columns
	writeJudged(sb, in)
	sb.WriteString("\n")
}

// writeJudged says which requests each latency threshold judged, and how
// failed ones count, so a passing p(95) over failed requests is never
// read as a healthy target.
func writeJudged(sb *strings.Builder, in *Input) {
	any := false
	for i, res := range in.Results {
		t := &in.Thresholds[i]
		ev, ok := in.Run.LatencyEvidence(t)
		if !ok || res.Reason != "" {
			continue
		}
		any = true
		// The key stays whole on a line, cut in the middle when a long endpoint makes it wider than one.
		key := strings.ReplaceAll(units.Middle(res.Key, units.Columns-4), " ", units.Keep)
		sb.WriteString(wrap("judged: "+key+" "+res.Expr+" over "+judgedOver(t, ev, metricUnit(in.Run, t.Metric)), units.Columns, "  ", "    "))
	}
	if any {
		sb.WriteString(wrap("A latency threshold judges every "+runUnit(in.Run).Or().One+" its filter selects, a failed one with the time it took (as k6's "+
			"http_req_duration does); it fails when none succeeded, and a percentile (med, max) when more failed than it leaves out.",
			units.Columns, "  ", "  "))
	}
}

// judgedOver says which requests (gRPC calls, sessions: u) a latency
// threshold judged: those its filter selects, and how many of them failed;
// with expected_response: only the requests of that outcome, out of those sent.
func judgedOver(t *threshold.Threshold, ev metrics.Evidence, u units.Unit) string {
	keep := func(s string) string { return strings.ReplaceAll(s, " ", units.Keep) }
	for _, f := range t.Filter {
		if f.Key != "expected_response" {
			continue
		}
		n, which := ev.Succeeded, "succeeded"
		if f.Value != "true" {
			n, which = ev.Failed(), "failed"
		}
		return fmt.Sprintf("the %s that %s, of %s sent", keep(u.Count(n)), which, keep(units.Count(ev.Sent)))
	}
	failedPart := "none failed"
	if n := ev.Failed(); n > 0 {
		failedPart = units.CountOf(n, "failed", "failed") + " (" + units.Percent(ratio(n, ev.Sent)) + ")"
	}
	return u.Count(ev.Sent) + ", " + keep(failedPart)
}

// kindOrder lists failure kinds for summaries, skipping OK.
func kindOrder() []sample.Kind {
	out := make([]sample.Kind, 0, sample.NumKinds-1)
	for k := sample.Kind(1); k < sample.NumKinds; k++ {
		out = append(out, k)
	}
	return out
}

// wrap breaks text into lines of at most width columns with a hanging
// indent: units.Wrap, the one wrapper every printed line goes through.
func wrap(text string, width int, first, rest string) string {
	return units.Wrap(text, width, first, rest)
}

// vusPhrase says how many VUs the run had: an open model's pool is
// allocated ahead of need, so its busy peak is said beside it.
func vusPhrase(allocated, busy int64) string {
	if busy >= allocated || busy <= 0 {
		return units.CountOf(allocated, "VU", "VUs")
	}
	return units.CountOf(allocated, "VU", "VUs") + " (" + units.Count(busy) + " busy)"
}

// PathLine is "  what: path", or, when that would pass units.Columns, the
// path on a line of its own: a path is never cut, so that it can be copied.
func PathLine(what, path string) string {
	if line := "  " + what + ": " + path; utf8.RuneCountInString(line) <= units.Columns {
		return line + "\n"
	}
	return "  " + what + ":\n  " + path + "\n"
}
