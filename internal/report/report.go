// Package report is loadlens's one rendering layer. It renders a finished
// (or interrupted) run — the terminal summary, summary.json, report.html,
// JUnit XML, a Markdown summary and the per-second frames the live
// dashboard draws — and what the decision tools return: findings
// (findings_text.go), comparisons (compare_*.go), capacity searches
// (capacity_*.go) and estimates (estimate_*.go). Every figure is written
// by internal/units and every page sits in internal/web's shell. It reads
// the run model and never the engine.
package report

import (
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// ms converts a duration to float milliseconds, the unit of summary.json
// and the pages' data.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// ratio returns a/b, or NaN when b is 0.
func ratio(a, b int64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// table lays out rows in aligned columns; the first row is the header.
// align has one letter per column: 'l' left-aligns text, 'r' right-aligns
// numbers, which read best that way, and 'm' left-aligns a name that may be
// cut in the middle (units.Middle) so that the table fits units.Columns.
// Figures are never cut: names in the first column that would be cut to
// fewer than minStack columns go each on a line of its own above its row's
// figures instead.
func table(sb *strings.Builder, indent, align string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	widths := colWidths(rows)
	whole := widths[0]
	fits := fitColumns(widths, indent, align, rows[0])
	if !strings.HasPrefix(align, "m") || len(widths) < 2 || fits && (widths[0] == whole || widths[0] >= minStack) {
		writeRows(sb, indent, align, widths, rows)
		return
	}
	// Stacked: each name alone, cut only if longer than a line, and the
	// rest of its row under it, indented.
	rest := make([][]string, len(rows))
	for i, r := range rows {
		rest[i] = r[1:]
	}
	restIndent := indent + "    "
	restWidths := colWidths(rest)
	fitColumns(restWidths, restIndent, align[1:], rest[0])
	for i, r := range rows {
		sb.WriteString(indent + units.Middle(r[0], units.Columns-utf8.RuneCountInString(indent)) + "\n")
		writeRows(sb, restIndent, align[1:], restWidths, rest[i:i+1])
	}
}

// minCut is the fewest columns a name is cut to: fewer would not say
// which endpoint it is. A first column is not cut below minStack: its
// names, the rows' keys, then go on lines of their own.
const (
	minCut   = 16
	minStack = 40
)

// colWidths returns the widest cell of each column, in runes.
func colWidths(rows [][]string) []int {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	return widths
}

// fitColumns narrows the 'm' and 'w' columns, the widest first and none below
// minCut or its header, until the table fits units.Columns; it reports
// whether it does.
func fitColumns(widths []int, indent, align string, head []string) bool {
	for {
		total := utf8.RuneCountInString(indent) + 2*(len(widths)-1)
		for _, w := range widths {
			total += w
		}
		if total <= units.Columns {
			return true
		}
		widest := -1
		for i, w := range widths {
			floor := max(minCut, utf8.RuneCountInString(head[i]))
			if i < len(align) && strings.IndexByte("mwW", align[i]) >= 0 && w > floor && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return false
		}
		widths[widest]-- // a column at a time, so that the widest names give up the most
	}
}

// writeRows writes rows in columns of the given widths, cutting an 'm'
// cell that is wider than its column in the middle, and wrapping a 'w'
// cell (a message) onto up to wrapLines lines of its own column: a
// message's start names the cause and its end the fix, so neither is cut.
// A 'W' cell (a threshold's observed text) wraps onto as many as it needs.
func writeRows(sb *strings.Builder, indent, align string, widths []int, rows [][]string) {
	for _, r := range rows {
		var more []string // a 'w' cell's lines after its first
		var line strings.Builder
		line.WriteString(indent)
		at := utf8.RuneCountInString(indent) // the column the 'w' cell starts at
		for i, c := range r {
			a := byte('l')
			if i < len(align) {
				a = align[i]
			}
			if i > 0 {
				line.WriteString("  ")
				at += 2
			}
			switch a {
			case 'm':
				c = units.Middle(c, widths[i])
			case 'w', 'W':
				lines := wrapCell(c, widths[i], a == 'w')
				c, more = lines[0], lines[1:]
				for j := range more {
					more[j] = strings.Repeat(" ", at) + more[j]
				}
			}
			pad := strings.Repeat(" ", max(widths[i]-utf8.RuneCountInString(c), 0))
			if a == 'r' {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
			at += widths[i]
		}
		sb.WriteString(strings.TrimRight(line.String(), " ") + "\n") // no trailing spaces
		for _, l := range more {
			sb.WriteString(l + "\n")
		}
	}
}

// wrapLines is the most lines a message cell takes; a longer one has its
// last line cut at words (units.Cut), its start still whole above.
const wrapLines = 3

// wrapCell breaks c into lines of at most width columns at words, no more
// than wrapLines when capped.
func wrapCell(c string, width int, capped bool) []string {
	if utf8.RuneCountInString(c) <= width {
		return []string{c}
	}
	lines := strings.Split(strings.TrimSuffix(units.Wrap(c, width, "", ""), "\n"), "\n")
	if capped && len(lines) > wrapLines {
		lines = append(lines[:wrapLines-1], strings.Join(lines[wrapLines-1:], " "))
	}
	for i, l := range lines {
		lines[i] = units.Cut(l, width) // a word longer than the line, or the joined last line
	}
	return lines
}
