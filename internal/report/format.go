// Package report renders a finished (or interrupted) run: the terminal
// summary, summary.json, report.html, JUnit XML and a Markdown summary, and
// the per-second frames the live dashboard draws. It reads the run model
// and never the engine.
package report

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Dur formats a duration the way k6 users read them: 950µs, 12.3ms, 1.25s.
func Dur(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.2fms", ms(d))
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.1fms", ms(d))
	case d < time.Second:
		return fmt.Sprintf("%.0fms", ms(d))
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// ms converts a duration to float milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Pct formats a ratio as a percentage with two decimals.
func Pct(r float64) string {
	if math.IsNaN(r) {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*r)
}

// Bytes formats a byte count with a binary-free SI unit, as k6 does.
func Bytes(n int64) string {
	f := float64(n)
	for _, u := range []string{"B", "kB", "MB", "GB"} {
		if f < 1000 {
			if u == "B" {
				return fmt.Sprintf("%.0f %s", f, u)
			}
			return fmt.Sprintf("%.1f %s", f, u)
		}
		f /= 1000
	}
	return fmt.Sprintf("%.1f TB", f)
}

// Rate formats a per-second rate.
func Rate(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f/s", r)
	}
	return fmt.Sprintf("%.1f/s", r)
}

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
		sb.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i > 0 {
				sb.WriteString("  ")
			}
			switch {
			case i < len(align) && align[i] == 'r':
				sb.WriteString(pad + c)
			case i == len(r)-1:
				sb.WriteString(c) // no trailing spaces
			default:
				sb.WriteString(c + pad)
			}
		}
		sb.WriteString("\n")
	}
}
