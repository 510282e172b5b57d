package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/units"
)

// WriteCompareText writes a comparison as terminal tables: the runs and the part
// of each that was compared, how the loads compare, then one table per row.
func WriteCompareText(w io.Writer, r *compare.Report) error {
	var b strings.Builder
	b.WriteString("Runs (" + r.Groups[0].Name + " is the baseline)\n")
	runRows := [][]string{{"", "RUN", "MODEL", "COMPARED"}}
	for _, ri := range r.Runs {
		runRows = append(runRows, []string{ri.Label + mark(r.Groups[ri.Group]), ri.Name, ri.Model, partText(ri)})
	}
	table(&b, "  ", "lmll", runRows)
	for _, ri := range r.Runs {
		if ri.Note != "" {
			b.WriteString(wrapAfter("  "+ri.Label+": ", ri.Note, units.Columns))
		}
	}
	if len(r.Scaling) > 0 {
		b.WriteString("\nLoad and throughput\n")
		for _, s := range r.Scaling {
			b.WriteString(wrapAfter("  "+s.Group+": ", s.Text, 100))
		}
	}
	var untested []string // why changes were not tested, each marked once in every table
	for _, row := range r.Rows {
		b.WriteString("\n" + units.Middle(row.Name, units.Columns) + "\n")
		cells, marks := textCells(r, row, &untested)
		table(&b, "  ", "l"+strings.Repeat("r", 2*len(r.Groups)), cells)
		for _, k := range marks {
			b.WriteString(wrapAfter("  "+footMark(k)+" ", "not tested: "+untested[k], units.Columns))
		}
	}
	b.WriteString("\n")
	for _, l := range legend(r) {
		b.WriteString(wrapAfter("", l, 100))
	}
	for _, n := range r.Notes {
		b.WriteString(wrapAfter("note: ", n, 100))
	}
	_, err := io.WriteString(w, b.String())
	return err
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
// metric with each group's value and each later group's change.
func tableCells(r *compare.Report, row compare.Row) [][]string {
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
				line = append(line, compareChangeText(l.Metric, v))
			}
		}
		cells = append(cells, line)
	}
	return cells
}

// textCells is tableCells for the terminal: a change that was not tested
// carries a mark whose reason goes under the table (the reasons are long
// and repeat; in the cells they widened the table past the terminal).
// marks returns the indices into untested that the table used.
func textCells(r *compare.Report, row compare.Row, untested *[]string) (cells [][]string, marks []int) {
	cells = tableCells(r, row)[:1]
	for _, l := range row.Lines {
		line := []string{l.Metric.String()}
		for i, v := range l.Values {
			line = append(line, compareValueText(l.Metric, v))
			if i == 0 {
				continue
			}
			if v.Delta == nil || v.CI != nil {
				line = append(line, compareChangeText(l.Metric, v))
				continue
			}
			k := slices.Index(*untested, v.NotTested)
			if k < 0 {
				k = len(*untested)
				*untested = append(*untested, v.NotTested)
			}
			if !slices.Contains(marks, k) {
				marks = append(marks, k)
			}
			line = append(line, compare.ChangeText(l.Metric, v)+" "+footMark(k))
		}
		cells = append(cells, line)
	}
	return cells, marks
}

// footMark is the k-th (from 0) mark of a note under a table: ¹, ², … ¹⁰.
func footMark(k int) string {
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	var out []rune
	for _, d := range strconv.Itoa(k + 1) {
		out = append(out, digits[d-'0'])
	}
	return string(out)
}

// legend explains "~", the intervals, group means and "*".
func legend(r *compare.Report) []string {
	conf := units.Share(1 - r.Alpha)
	smallest := "smaller than 1% for req/s and latencies or 0.1pp for errors and checks"
	if strings.Contains(r.Method, "bootstrap") {
		smallest = "smaller than the runs' own noise (how far the halves, or the stretches of seconds, of either run differ; never less than 1% for req/s and latencies, 0.1pp for errors and checks)"
	}
	out := []string{
		fmt.Sprintf("~ no significant change: the %s confidence interval of the change [low, high] includes 0, or the change is %s.", conf, smallest),
		"Intervals: " + r.Method + ". How they are computed, and how often they err: docs/compare.md.",
	}
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
	switch m {
	case compare.TPS:
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
		return compare.ChangeText(m, v) + " (not tested: " + v.NotTested + ")"
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
