package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/units"
)

// WriteCompareText writes a comparison as terminal tables: the runs and the part
// of each that was compared, how the loads compare, then one table per row.
func WriteCompareText(w io.Writer, r *compare.Report) error {
	var b strings.Builder
	b.WriteString("Runs (" + r.Groups[0].Name + " is the baseline)\n")
	b.WriteString(runsTable(r))
	for _, ri := range r.Runs {
		if ri.Note != "" {
			b.WriteString(wrapAfter("  "+ri.Label+": ", ri.Note, units.Columns))
		}
	}
	if len(r.Scaling) > 0 {
		b.WriteString("\nLoad and throughput\n")
		for _, s := range r.Scaling {
			b.WriteString(wrapAfter("  "+s.Group+": ", s.Text, units.Columns))
		}
	}
	if vs := compareVerdicts(r); len(vs) > 0 {
		b.WriteString("\nVerdict\n")
		for _, v := range vs {
			b.WriteString(wrapAfter("  ", v, units.Columns))
		}
	}
	notes := &footnotes{}
	for _, row := range r.Rows {
		if idleRow(row) {
			b.WriteString("\n" + wrapAfter("", row.Name+": "+idleText, units.Columns))
			continue
		}
		cells := tableCells(r, row, notes)
		for k, cols := range tableChunks(cells, len(r.Groups)) {
			name := row.Name
			if k > 0 {
				name += " (continued)"
			}
			b.WriteString("\n" + units.Middle(name, units.Columns) + "\n") // a long endpoint is cut in the middle
			table(&b, "  ", "l"+strings.Repeat("r", len(cols)-1), pick(cells, cols))
		}
	}
	b.WriteString("\n")
	for i, why := range notes.reasons {
		b.WriteString(wrapAfter(superscript(i+1)+" ", "not testable: "+why, units.Columns))
	}
	for _, l := range legend(r) {
		b.WriteString(wrapAfter("", l, units.Columns))
	}
	for _, n := range r.Notes {
		b.WriteString(wrapAfter("note: ", n, units.Columns))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// runName is a compared run's name with its labels, if any:
// "20261130-080317-road fix=pool-8".
func runName(ri compare.RunInfo) string {
	if len(ri.Tags) == 0 {
		return ri.Name
	}
	return ri.Name + " " + history.TagText(ri.Tags)
}

// runsTable lists the runs and the part of each that was compared; when
// that is wider than units.Columns (long run names), each run's part goes
// on a line of its own below it.
func runsTable(r *compare.Report) string {
	var rows, short [][]string
	for _, ri := range r.Runs {
		rows = append(rows, []string{ri.Label + mark(r.Groups[ri.Group]), runName(ri), ri.Model, partText(ri)})
		short = append(short, rows[len(rows)-1][:3])
	}
	var b strings.Builder
	table(&b, "  ", "", rows)
	if widest(b.String()) <= units.Columns {
		return b.String()
	}
	var t strings.Builder
	table(&t, "  ", "", short)
	var out strings.Builder
	for i, line := range strings.SplitAfter(strings.TrimSuffix(t.String(), "\n"), "\n") {
		out.WriteString(strings.TrimSuffix(line, "\n") + "\n")
		out.WriteString(units.Wrap(partText(r.Runs[i]), units.Columns, "      ", "      "))
	}
	return out.String()
}

// tableChunks splits a table's columns (the metric, the baseline, then a
// value and a change per later group) into tables that fit units.Columns,
// each starting with the metric and the baseline; one group per table at
// least.
func tableChunks(cells [][]string, groups int) [][]int {
	widths := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	lead := 2 + widths[0] + 2 + widths[1]
	var out [][]int
	cur, n := []int{0, 1}, lead
	for g := 1; g < groups; g++ {
		w := 2 + widths[2*g] + 2 + widths[2*g+1]
		if len(cur) > 2 && n+w > units.Columns {
			out = append(out, cur)
			cur, n = []int{0, 1}, lead
		}
		cur, n = append(cur, 2*g, 2*g+1), n+w
	}
	return append(out, cur)
}

// pick returns the columns cols of every row.
func pick(cells [][]string, cols []int) [][]string {
	out := make([][]string, len(cells))
	for i, row := range cells {
		for _, c := range cols {
			out[i] = append(out[i], row[c])
		}
	}
	return out
}

// widest is the widest line of text in columns.
func widest(text string) int {
	w := 0
	for _, l := range strings.Split(text, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// footnotes numbers the reasons why changes are not testable, once each,
// so that a table cell carries a mark instead of the reason.
type footnotes struct{ reasons []string }

// mark returns the mark of reason, numbering it when it is new.
func (f *footnotes) mark(reason string) string {
	for i, r := range f.reasons {
		if r == reason {
			return superscript(i + 1)
		}
	}
	f.reasons = append(f.reasons, reason)
	return superscript(len(f.reasons))
}

// superscript writes n in superscript digits.
func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	var out []rune
	for _, d := range fmt.Sprint(n) {
		out = append(out, []rune(digits)[d-'0'])
	}
	return string(out)
}

// mark is " *" for a group not at the baseline's load.
func mark(g compare.GroupInfo) string {
	if g.Comparable {
		return ""
	}
	return " *"
}

// partText describes the compared part of a run.
func partText(ri compare.RunInfo) string {
	src := map[string]string{"stages": "the test's hold", "data": "steady in the data", "whole run": "whole run"}[ri.Source]
	return fmt.Sprintf("%s (%s of %s, %s) at %s %s", units.Span(ri.First, ri.Last), units.Count(int64(ri.Seconds)),
		units.CountOf(int64(ri.RunSeconds), "second", "seconds"), src, units.Number(ri.Load), ri.LoadUnit)
}

// tableCells lays out one row of the report: a header, then a line per
// metric with each group's value and each later group's change. With
// notes, a change that is not testable carries a footnote mark for its
// reason; without, the reason itself.
func tableCells(r *compare.Report, row compare.Row, notes *footnotes) [][]string {
	head := []string{""}
	for i, g := range r.Groups {
		head = append(head, g.Name+mark(g))
		if i > 0 {
			head = append(head, g.Name+" vs "+r.Groups[0].Name)
		}
	}
	cells := [][]string{head}
	for _, l := range row.Lines {
		line := []string{l.Metric.String()}
		for i, v := range l.Values {
			line = append(line, compareValueText(l.Metric, v))
			if i > 0 {
				cell := compareChangeText(l.Metric, v)
				if notes != nil && v.Delta != nil && v.CI == nil {
					cell = compare.ChangeText(l.Metric, v) + " not testable" + notes.mark(v.NotTested)
				}
				line = append(line, cell)
			}
		}
		cells = append(cells, line)
	}
	return cells
}

// legend explains "~", the intervals, group means and "*".
func legend(r *compare.Report) []string {
	conf := units.Share(1 - r.Alpha)
	smallest := "smaller than 1% for req/s and latencies or 0.1pp for errors and checks"
	if strings.Contains(r.Method, "bootstrap") {
		smallest = "smaller than the runs' own noise (how far the halves, or the stretches of seconds, of either run differ; never less than 1% for req/s, 5% for p50 and 10% for p95 and p99 between single runs, 0.1pp for errors and checks)"
	}
	var out []string
	if anyVerdict(r, "~") {
		out = append(out, fmt.Sprintf("~ no significant change: the %s confidence interval of the change [low, high] includes 0, or the change is %s.", conf, smallest))
	}
	out = append(out, "Intervals: "+r.Method+". How they are computed, and how often they err: docs/compare.md.")
	for _, g := range r.Groups {
		if len(g.Runs) > 1 {
			out = append(out, fmt.Sprintf("%s is the geometric mean of its %d runs (the arithmetic mean for errors and checks).", g.Name, len(g.Runs)))
		}
	}
	for _, g := range r.Groups {
		if !g.Comparable {
			out = append(out, "* not at the baseline's load: the loads differ too much to compare fairly, and a change may come from the load, not the system.")
			break
		}
	}
	return out
}

// anyVerdict reports whether some change of the report has verdict v.
func anyVerdict(r *compare.Report, v string) bool {
	for _, row := range r.Rows {
		for _, l := range row.Lines {
			for _, x := range l.Values {
				if x.Verdict == v {
					return true
				}
			}
		}
	}
	return false
}

// wrapAfter writes text after prefix, wrapped at width columns, later lines
// indented like the text's start.
func wrapAfter(prefix, text string, width int) string {
	return wrap(text, width, prefix, strings.Repeat(" ", utf8.RuneCountInString(prefix)))
}

// compareValueText writes a run's figure of metric m for a table.
func compareValueText(m compare.Metric, v compare.Value) string {
	if !v.Has {
		return "—"
	}
	switch m.Base() {
	case compare.TPS, compare.Succeeded:
		return units.Number(v.Value)
	case compare.ErrorRate, compare.CheckRate:
		return units.Percent(v.Value)
	}
	return units.DurationMillis(v.Value)
}

// compareChangeText writes a group's change against the baseline: the change
// and its confidence interval when it is significant, else "~" and the
// interval — benchstat's mark for no significant change — with the noise
// of the runs when that is what held the change back.
func compareChangeText(m compare.Metric, v compare.Value) string {
	if v.Delta == nil {
		return ""
	}
	if v.CI == nil {
		return compare.ChangeText(m, v) + " (not testable: " + v.NotTested + ")"
	}
	lo, hi := v.Bounds(m)
	ci := units.Interval(compare.ScaleText(m, lo), compare.ScaleText(m, hi))
	if v.Significant {
		return compare.ChangeText(m, v) + " " + ci
	}
	if v.HeldBackByNoise(m) {
		return "~ " + ci + " < noise " + strings.TrimPrefix(compare.ScaleText(m, v.MinEffect), "+")
	}
	return "~ " + ci
}

// idleText is what an endpoint row without requests says instead of a
// table of zeros and dashes (the demo's one reset before the hold).
const idleText = "no request in any run's compared seconds"

// idleRow reports whether no run sent the row's endpoint a request in its
// compared seconds.
func idleRow(row compare.Row) bool {
	for _, l := range row.Lines {
		if l.Metric != compare.TPS {
			continue
		}
		for _, v := range l.Values {
			if v.Has && v.Value > 0 {
				return false
			}
		}
		return true
	}
	return false
}
