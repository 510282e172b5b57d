package report

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// Markdown renders the run as GitHub-flavoured Markdown, for a GitHub
// Actions job summary ($GITHUB_STEP_SUMMARY) or a pull-request comment.
// Text from the run is escaped, so a name or message cannot add links,
// markup or table cells.
func Markdown(in *Input) []byte {
	var sb strings.Builder
	r := in.Run
	tot := r.Total()
	icon := map[string]string{VerdictPass: "✅", VerdictFail: "❌", VerdictNoThresholds: "ℹ️"}[Verdict(in)]
	if icon == "" { // interrupted, aborted, failed or incomplete: not a pass, whatever the thresholds say
		icon = "⚠️"
	}
	fmt.Fprintf(&sb, "## %s %s: %s\n\n", icon, Verdict(in), mdEscape(in.Name))
	fmt.Fprintf(&sb, "%s in %s · started %s · loadlens %s\n\n", mdEscape(in.Status), units.Duration(r.Elapsed()),
		in.Start.Format("2006-01-02 15:04:05 MST"), mdEscape(in.Version))

	var passes, fails int64
	for _, c := range r.Checks {
		passes, fails = passes+c.Passes, fails+c.Fails
	}
	checks := "-"
	if len(r.Checks) > 0 {
		checks = units.Percent(ratio(passes, passes+fails))
	}
	h := tot.Duration
	count, _ := countHeads(runUnit(r))
	mdTable(&sb, "rrrrrrr", [][]string{
		{count, "Throughput", callPrefix(r) + "p95", callPrefix(r) + "p99", "Errors", "Checks", "Dropped"},
		{units.Count(tot.Requests) + unitSplit(r, " (", ")"), rateCell(r), latencyText(r, h.Quantile(95)), latencyText(r, h.Quantile(99)),
			units.Percent(ratio(failed(&tot), tot.Requests)), checks, units.Count(in.Dropped())},
	})

	mdThresholds(&sb, in)
	mdFindings(&sb, in) // why, next to the verdict: a job summary is read from the top
	mdEndpoints(&sb, r)
	mdSessions(&sb, r)
	mdErrorsAndChecks(&sb, r)
	mdNotes(&sb, in)
	if in.Dir != "" {
		fmt.Fprintf(&sb, "Results: %s (open report.html there for the charts)\n", mdEscape(in.Dir))
	}
	return []byte(sb.String())
}

// mdThresholds writes the thresholds' table, when the test has any.
func mdThresholds(sb *strings.Builder, in *Input) {
	if len(in.Results) > 0 {
		rows := [][]string{{"", "Metric", "Threshold", "Observed"}}
		for i, res := range in.Results {
			mark := "✅"
			if !res.Pass {
				mark = "❌"
			}
			obs := Observed(&in.Thresholds[i], res)
			if res.Aborted {
				obs += " (stopped the run)"
			}
			rows = append(rows, []string{mark, mdEscape(res.Key), mdEscape(res.Expr), mdEscape(obs)})
		}
		sb.WriteString("### Thresholds\n\n")
		mdTable(sb, "llll", rows)
	}
}

// mdEndpoints writes the endpoints' table and what their rates are over.
func mdEndpoints(sb *strings.Builder, r *metrics.Run) {
	count, rate := countHeads(runUnit(r))
	rows := [][]string{{"Endpoint", count, "Active", rate, "Errors", "Min", "Avg", "p50", "p90", "p95", "p99", "Max"}}
	eps, all := endpointTable(r)
	for _, s := range eps {
		rows = append(rows, mdEndpointRow(newEndpointRow(s)))
	}
	if all != nil {
		row := newEndpointRow(*all)
		row.Name = "**all endpoints**"
		rows = append(rows, mdEndpointRow(row))
	}
	sb.WriteString("### Endpoints\n\n")
	mdTable(sb, "lrrrrrrrrrrr", rows)
	sb.WriteString(rateNote(r, rate, count, "Active") + "\n\n")
}

// mdSessions writes the session protocols' figures, their statuses and
// the custom metrics, each when the run has some.
func mdSessions(sb *strings.Builder, r *metrics.Run) {
	for _, t := range []struct {
		title, first, align string
		head                []string
		rows                []tableRow
	}{
		{"Sessions", "Endpoint", "llrrrrrrrrr", sessionHead(r), sessionRows(r)},
		{"Statuses", "Endpoint", "llrr", statusHead, statusRows(r)},
		{"Custom metrics", "Metric", "llrl", customHead, customRows(r)},
	} {
		if len(t.rows) == 0 {
			continue
		}
		rows := [][]string{append([]string{t.first}, t.head...)}
		for _, row := range t.rows {
			cells := []string{mdEscape(row.Name)}
			for _, c := range row.Cells {
				cells = append(cells, mdEscape(c))
			}
			rows = append(rows, cells)
		}
		sb.WriteString("### " + t.title + "\n\n")
		mdTable(sb, t.align, rows)
	}
}

// mdErrorsAndChecks writes the errors' and the checks' tables, when there
// are any.
func mdErrorsAndChecks(sb *strings.Builder, r *metrics.Run) {
	if errs := errorRows(r); len(errs) > 0 {
		rows := [][]string{{"Kind", "Endpoint", "Count", "Seconds", "Sample"}}
		for _, e := range errs {
			sampleMsg := ""
			if len(e.Samples) > 0 {
				sampleMsg = units.Cut(units.Escape(e.Samples[0].Short), 80) // the target wrote it: no terminal controls
			}
			if len(e.Samples) > 1 { // the most counted message, with its count of the kind's
				sampleMsg = e.Samples[0].Count + "× " + sampleMsg + " (" + units.CountOf(int64(len(e.Samples)-1), "other message", "other messages")
				if e.Others != "" {
					sampleMsg += ", " + e.Others
				}
				sampleMsg += ")"
			}
			rows = append(rows, []string{e.Kind, mdEscape(e.Endpoint), units.Count(e.Count), e.Seconds, mdEscape(sampleMsg)})
		}
		sb.WriteString("### Errors\n\n")
		mdTable(sb, "llrll", rows)
	}

	if cks := checkRows(r); len(cks) > 0 {
		rows := [][]string{{"", "Check", "Endpoint", "Passed", "✓", "✗"}}
		for _, c := range cks {
			mark := map[string]string{"ok": "✅", "bad": "❌"}[c.Class]
			if mark == "" {
				mark = c.Mark // never ran: no emoji says pass or fail
			}
			rows = append(rows, []string{mark, mdEscape(c.Name), mdEscape(c.Endpoint), c.Rate,
				units.Count(c.Passes), units.Count(c.Fails)})
		}
		sb.WriteString("### Checks\n\n")
		mdTable(sb, "lllrrr", rows)
	}
}

// mdNotes writes the run's warnings and notices as a list.
func mdNotes(sb *strings.Builder, in *Input) {
	var notes []string
	if d := in.Dropped(); d > 0 {
		notes = append(notes, "⚠️ "+units.CountOf(d, "iteration was", "iterations were")+" dropped for lack of a free VU: percentiles are optimistic.")
	}
	for _, a := range Accounting(in) {
		notes = append(notes, "⚠️ "+mdEscape(a))
	}
	for _, n := range in.Notices {
		notes = append(notes, mdEscape(n))
	}
	for _, n := range notes {
		fmt.Fprintf(sb, "- %s\n", n)
	}
	if len(notes) > 0 {
		sb.WriteString("\n")
	}
}

func mdEndpointRow(row endpointRow) []string {
	out := []string{row.Name}
	if !strings.HasPrefix(row.Name, "**") {
		out[0] = mdEscape(row.Name)
	}
	for _, c := range row.Cells {
		out = append(out, c.Text)
	}
	return out
}

// mdTable writes a Markdown table; the first row is the header, and align
// has one letter per column ('l' or 'r').
func mdTable(sb *strings.Builder, align string, rows [][]string) {
	for i, r := range rows {
		sb.WriteString("| " + strings.Join(r, " | ") + " |\n")
		if i == 0 {
			seps := make([]string, len(r))
			for k := range seps {
				seps[k] = "---"
				if k < len(align) && align[k] == 'r' {
					seps[k] = "--:"
				}
			}
			sb.WriteString("|" + strings.Join(seps, "|") + "|\n")
		}
	}
	sb.WriteString("\n")
}

// mdEscape escapes text from the run for a Markdown table cell or line:
// what Markdown, or the HTML GitHub allows in it, would read as syntax
// (table pipes, emphasis, links, code, tags, entities) comes out literal.
func mdEscape(s string) string {
	var sb strings.Builder
	for _, c := range s {
		switch c {
		case '\\', '|', '*', '_', '`', '[', ']', '~':
			sb.WriteByte('\\')
			sb.WriteRune(c)
		case '<':
			sb.WriteString("&lt;")
		case '>':
			sb.WriteString("&gt;")
		case '&':
			sb.WriteString("&amp;")
		case '\r', '\n':
			sb.WriteByte(' ')
		default:
			sb.WriteRune(c)
		}
	}
	return sb.String()
}
