package compare

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText writes the comparison as terminal tables: the runs and the part
// of each that was compared, then one table per row.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("Runs (the first is the baseline)\n")
	runRows := [][]string{}
	for i, ri := range r.Runs {
		mark := ""
		if !ri.Comparable {
			mark = " *"
		}
		runRows = append(runRows, []string{letter(i) + mark, ri.Name, ri.Model, partText(ri)})
	}
	writeTable(&b, "  ", runRows, 0)
	for i, ri := range r.Runs {
		if ri.Note != "" {
			fmt.Fprintf(&b, "  %s: %s\n", letter(i), ri.Note)
		}
	}
	for _, row := range r.Rows {
		b.WriteString("\n" + row.Name + "\n")
		writeTable(&b, "  ", tableCells(r, row), 1)
	}
	b.WriteString("\n" + legend(r) + "\n")
	for _, n := range r.Notes {
		b.WriteString("note: " + n + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// letter names the i-th run in tables: A, B, C, ...
func letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

// partText describes the compared part of a run.
func partText(ri RunInfo) string {
	return fmt.Sprintf("%s–%s (%d of %d s) at %s %s", fmtSec(ri.First), fmtSec(ri.Last), ri.Seconds, ri.RunSeconds,
		fmtNum(ri.Load), ri.LoadUnit)
}

// tableCells lays out one row of the report: a header, then a line per
// metric with each run's value and each later run's change.
func tableCells(r *Report, row Row) [][]string {
	head := []string{""}
	for i, ri := range r.Runs {
		mark := ""
		if !ri.Comparable {
			mark = " *"
		}
		head = append(head, letter(i)+mark)
		if i > 0 {
			head = append(head, letter(i)+" vs A")
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

// legend explains "~", "*" and how significance was judged.
func legend(r *Report) string {
	s := fmt.Sprintf("~ no significant change (Mann-Whitney U over the per-second figures of the compared seconds, p ≥ %g; checks: two-proportion z-test)", r.Alpha)
	for _, ri := range r.Runs {
		if !ri.Comparable {
			return s + "\n* not at the baseline's load: differences may come from the load, not the system"
		}
	}
	return s
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
