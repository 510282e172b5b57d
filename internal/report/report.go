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
// numbers, which read best that way.
func table(sb *strings.Builder, indent, align string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		line.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i > 0 {
				line.WriteString("  ")
			}
			if i < len(align) && align[i] == 'r' {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		sb.WriteString(strings.TrimRight(line.String(), " ") + "\n") // no trailing spaces
	}
}
