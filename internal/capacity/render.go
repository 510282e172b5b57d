package capacity

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Render writes a search's outcome: the highest sustainable rate, the
// knee, what failed first, the USL fit, why it stopped, and every step.
func Render(w io.Writer, r Result) error {
	var b strings.Builder
	b.WriteString("Capacity search\n")
	switch {
	case r.Highest > 0 && r.Stop == GeneratorSaturated:
		fmt.Fprintf(&b, "  highest sustainable rate  at least %s/s (the generator could not go further)\n", num(r.Highest))
	case r.Highest > 0 && r.LowestFailing > 0:
		fmt.Fprintf(&b, "  highest sustainable rate  %s/s (the SLO held at %s/s and failed at %s/s)\n", num(r.Highest), num(r.Highest), num(r.LowestFailing))
	case r.Highest > 0:
		fmt.Fprintf(&b, "  highest sustainable rate  at least %s/s (no step failed the SLO)\n", num(r.Highest))
	default:
		b.WriteString("  highest sustainable rate  none found: no step passed the SLO\n")
	}
	if k := r.Knee; k != nil {
		fmt.Fprintf(&b, "  knee                      %s/s: p95 stays within %s× its low-load %s up to here (%s); %s at %s/s\n",
			num(k.Rate), num(r.Config.KneeFactor), dur(k.Base), dur(k.P95), dur(k.NextP95), num(k.NextRate))
	} else {
		b.WriteString("  knee                      not found: too few steps, or p95 did not climb within the rates tried\n")
	}
	if len(r.FirstFailure) > 0 {
		fmt.Fprintf(&b, "  failed first              at %s/s: %s\n", num(firstFailingRate(r)), strings.Join(r.FirstFailure, "; "))
	}
	if f := r.USL; f != nil {
		peak := "no peak within reach (κ = 0)"
		if !math.IsInf(f.PeakConcurrency, 1) {
			peak = fmt.Sprintf("peak %s/s at %s in flight", num(f.PeakThroughput), num(f.PeakConcurrency))
		}
		fmt.Fprintf(&b, "  scalability (USL fit)     λ=%s/s per request in flight, σ=%.4f contention, κ=%.6f coherency; %s; R²=%.3f over %d steps\n",
			num(f.Lambda), f.Sigma, f.Kappa, peak, f.R2, f.Points)
	}
	fmt.Fprintf(&b, "  stopped                   %s: %s\n\n", r.Stop, r.StopDetail)
	cells := [][]string{{"#", "phase", "rate/s", "done/s", "p95", "p99", "errors", "dropped", "gen CPU", "lag p99", "SLO"}}
	for i, s := range r.Steps {
		verdict := "pass"
		if !s.Passed {
			verdict = "FAIL " + strings.Join(s.FailedThresholds, "; ")
		}
		if s.Saturation != "" {
			verdict += " (generator: " + s.Saturation + ")"
		}
		cells = append(cells, []string{strconv.Itoa(i + 1), string(s.Phase), num(s.Rate), num(s.Throughput), dur(s.P95), dur(s.P99),
			fmt.Sprintf("%.2f%%", 100*s.ErrorRate), strconv.FormatInt(s.Dropped, 10), fmt.Sprintf("%.0f%%", 100*s.GeneratorCPU),
			dur(s.LagP99), verdict})
	}
	writeTable(&b, cells)
	_, err := io.WriteString(w, b.String())
	return err
}

// firstFailingRate is the rate of the first step that failed.
func firstFailingRate(r Result) float64 {
	for _, s := range r.Steps {
		if !s.Passed {
			return s.Rate
		}
	}
	return 0
}

// dur writes a latency compactly: 850µs, 2.35ms, 23.5ms, 235ms, 1.23s.
func dur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d <= 0:
		return "0"
	case ms < 1:
		return fmt.Sprintf("%.0fµs", ms*1000)
	case ms < 10:
		return fmt.Sprintf("%.2fms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1fms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.2fs", ms/1000)
}

// writeTable writes aligned columns, the last one left as it is.
func writeTable(b *strings.Builder, cells [][]string) {
	widths := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row[:len(row)-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range cells {
		b.WriteString("  ")
		for i, c := range row {
			if i == len(row)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)) + c + "  ")
		}
		b.WriteString("\n")
	}
}
