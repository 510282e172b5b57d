package compare

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// WriteText writes the comparison as terminal tables: the runs and the part
// of each that was compared, how the loads compare, then one table per row.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("Runs (" + r.Groups[0].Name + " is the baseline)\n")
	var runRows [][]string
	for _, ri := range r.Runs {
		runRows = append(runRows, []string{ri.Label + mark(r.Groups[ri.Group]), ri.Name, ri.Model, partText(ri)})
	}
	writeTable(&b, "  ", runRows, 0)
	for _, ri := range r.Runs {
		if ri.Note != "" {
			fmt.Fprintf(&b, "  %s: %s\n", ri.Label, ri.Note)
		}
	}
	if len(r.Scaling) > 0 {
		b.WriteString("\nLoad and throughput\n")
		for _, s := range r.Scaling {
			b.WriteString(wrap("  "+s.Group+": ", s.Text, 100))
		}
	}
	for _, row := range r.Rows {
		b.WriteString("\n" + row.Name + "\n")
		writeTable(&b, "  ", tableCells(r, row), 1)
	}
	b.WriteString("\n")
	for _, l := range legend(r) {
		b.WriteString(wrap("", l, 100))
	}
	for _, n := range r.Notes {
		b.WriteString(wrap("note: ", n, 100))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mark is " *" for a group not at the baseline's load.
func mark(g GroupInfo) string {
	if g.Comparable {
		return ""
	}
	return " *"
}

// letter names the i-th group in tables: A, B, C, ...
func letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("G%d", i+1)
}

// partText describes the compared part of a run.
func partText(ri RunInfo) string {
	src := map[string]string{"stages": "the test's hold", "data": "steady in the data", "whole run": "whole run"}[ri.Source]
	return fmt.Sprintf("%s (%s of %s, %s) at %s %s", units.Span(ri.First, ri.Last), units.Count(int64(ri.Seconds)),
		units.CountOf(int64(ri.RunSeconds), "second", "seconds"), src, units.Number(ri.Load), ri.LoadUnit)
}

// tableCells lays out one row of the report: a header, then a line per
// metric with each group's value and each later group's change.
func tableCells(r *Report, row Row) [][]string {
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
			line = append(line, FormatValue(l.Metric, v))
			if i > 0 {
				line = append(line, FormatChange(l.Metric, l.Values[0], v))
			}
		}
		cells = append(cells, line)
	}
	return cells
}

// legend explains "~", the intervals, group means and "*".
func legend(r *Report) []string {
	conf := units.Share(1 - r.Alpha)
	smallest := "smaller than 1% for req/s and latencies or 0.1pp for errors and checks"
	if strings.Contains(r.Method, "bootstrap") {
		smallest = "smaller than the runs' own noise (the larger difference between the halves of either run; never less than 1% for req/s and latencies, 0.1pp for errors and checks)"
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

// wrap writes text after prefix, wrapped at width columns, later lines
// indented like the text's start.
func wrap(prefix, text string, width int) string {
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	var b strings.Builder
	line := prefix
	for _, word := range strings.Fields(text) {
		if utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width && strings.TrimSpace(line) != strings.TrimSpace(prefix) {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = indent
		}
		if line != indent && line != prefix {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}

// writeTable writes cells as aligned columns: the first left-aligned, the
// others right-aligned from column numFrom on.
func writeTable(b *strings.Builder, indent string, cells [][]string, numFrom int) {
	var widths []int
	for _, row := range cells {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range cells {
		var line strings.Builder
		line.WriteString(indent)
		for i, c := range row {
			gap := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				line.WriteString("  ")
			}
			if i >= numFrom && numFrom > 0 {
				line.WriteString(gap + c)
			} else {
				line.WriteString(c + gap)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
