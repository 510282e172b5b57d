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
// knee, what failed first, the USL fit, retries, why it stopped, and every
// run of a step.
func Render(w io.Writer, r Result) error {
	var b strings.Builder
	b.WriteString("Capacity search\n")
	fmt.Fprintf(&b, "  highest sustainable rate  %s\n", highestText(r))
	if k := r.Knee; k != nil {
		fmt.Fprintf(&b, "  knee                      %s/s: p95 within %s× its low-load %s here (%s), past it at every higher rate (%s at %s/s)\n",
			num(k.Rate), num(r.Config.KneeFactor), dur(k.Base), dur(k.P95), dur(k.NextP95), num(k.NextRate))
	} else {
		b.WriteString("  knee                      not found: too few steps, or p95 did not climb within the rates tried\n")
	}
	if len(r.FirstFailure) > 0 {
		fmt.Fprintf(&b, "  failed first              at %s/s: %s\n", num(firstFailingRate(r)), strings.Join(r.FirstFailure, "; "))
	}
	fmt.Fprintf(&b, "  scalability (USL fit)     %s\n", uslText(r))
	if r.Retries > 0 {
		fmt.Fprintf(&b, "  retried                   %s\n", retriesText(r))
	}
	fmt.Fprintf(&b, "  stopped                   %s: %s\n\n", r.Stop, r.StopDetail)
	cells := [][]string{{"#", "phase", "rate/s", "done/s", "p95", "p99", "errors", "dropped", "gen CPU", "lag p99", "host CPU", "SLO"}}
	for i, s := range r.Steps {
		cells = append(cells, []string{strconv.Itoa(i + 1), phaseText(s), num(s.Rate), num(s.Throughput), dur(s.P95), dur(s.P99),
			fmt.Sprintf("%.2f%%", 100*s.ErrorRate), strconv.FormatInt(s.Dropped, 10), fmt.Sprintf("%.0f%%", 100*s.GeneratorCPU),
			dur(s.LagP99), hostText(s.StepResult), verdictText(s, " ")})
	}
	writeTable(&b, cells)
	_, err := io.WriteString(w, b.String())
	return err
}

// highestText is the headline: the highest sustainable rate and how sure it is.
func highestText(r Result) string {
	held := "no rate passed the SLO"
	if r.LowestFailing == 0 {
		held = "no rate could be judged"
	}
	if r.Highest > 0 {
		held = "the SLO held up to " + num(r.Highest) + "/s"
	}
	switch {
	case r.Stop == HostBusy:
		return fmt.Sprintf("not determined: the load generator's host was too busy to generate %s/s (%s); %s",
			num(lastRate(r)), attemptsShort(r), held)
	case r.Highest > 0 && r.Stop == GeneratorSaturated:
		return fmt.Sprintf("at least %s/s (the generator dropped iterations past it: raise max_vus to go further)", num(r.Highest))
	case r.Highest > 0 && r.LowestFailing > 0:
		return fmt.Sprintf("%s/s (the SLO held at %s/s and failed at %s/s)", num(r.Highest), num(r.Highest), num(r.LowestFailing))
	case r.Highest > 0:
		return fmt.Sprintf("at least %s/s (no step failed the SLO)", num(r.Highest))
	}
	return "none found: no step passed the SLO"
}

// uslText is the USL fit in words, or why none is shown.
func uslText(r Result) string {
	f := r.USL
	if f == nil {
		if r.USLNote != "" {
			return r.USLNote
		}
		return "not fitted"
	}
	var peak string
	switch {
	case !f.PeakInReach:
		peak = fmt.Sprintf("its peak lies past %d× the measured range: an extrapolation, not shown", uslReach)
	case math.IsInf(f.PeakConcurrency, 1):
		peak = fmt.Sprintf("no peak (κ = 0): throughput approaches %s/s", num(f.PeakThroughput))
	default:
		peak = fmt.Sprintf("peak %s/s at %s in flight", num(f.PeakThroughput), num(f.PeakConcurrency))
	}
	return fmt.Sprintf("λ=%s/s per request in flight, σ=%.4f contention, κ=%.6f coherency; %s; R²=%.3f over %d steps",
		num(f.Lambda), f.Sigma, f.Kappa, peak, f.R2, f.Points)
}

// retriesText says which rates were run again, and why.
func retriesText(r Result) string {
	var order []float64
	times := map[float64]int{}
	for _, s := range r.Steps {
		if s.Retried {
			if times[s.Rate] == 0 {
				order = append(order, s.Rate)
			}
			times[s.Rate]++
		}
	}
	rates := make([]string, len(order))
	for i, rate := range order {
		rates[i] = num(rate) + "/s"
		if n := times[rate]; n > 1 {
			rates[i] += fmt.Sprintf(" %d times", n)
		}
	}
	runs := "runs"
	if r.Retries == 1 {
		runs = "run"
	}
	return fmt.Sprintf("%d %s not judged because the load generator's host was busy, and run again (%s); see the table",
		r.Retries, runs, strings.Join(rates, ", "))
}

// verdictText is a run's outcome: pass, FAIL with what failed, or why it
// was not judged; sep joins the failed thresholds to the word FAIL.
func verdictText(s Record, sep string) string {
	if s.Retried {
		return "not judged, run again: host busy (" + s.Busy + ")"
	}
	verdict := "pass"
	if !s.Passed {
		verdict = "FAIL" + sep + strings.Join(s.FailedThresholds, "; ")
	}
	switch {
	case s.Busy != "" && !s.Judged:
		return "not judged, no retries left: host busy (" + s.Busy + ")"
	case s.Busy != "" && s.Passed:
		verdict += " (on a busy host, which only adds to latency: " + s.Busy + ")"
	case s.Busy != "":
		verdict += " (on a busy host, but the mean latency less twice the lag p99 is past the latency limit: " + s.Busy + ")"
	case s.Saturation != "":
		verdict += " (generator: " + s.Saturation + ")"
	}
	return verdict
}

// phaseText is a run's phase, with its attempt when it is a retry.
func phaseText(s Record) string {
	if s.Attempt > 1 {
		return fmt.Sprintf("%s, try %d", s.Phase, s.Attempt)
	}
	return string(s.Phase)
}

// hostText is the host's CPU over a run, with steal when there was any.
func hostText(s StepResult) string {
	if !s.HostKnown {
		return "-"
	}
	t := fmt.Sprintf("%.0f%%", 100*s.HostCPU)
	if s.HostSteal >= 0.005 {
		t += fmt.Sprintf(" (steal %.0f%%)", 100*s.HostSteal)
	}
	return t
}

// lastRate is the rate of the last run.
func lastRate(r Result) float64 {
	if len(r.Steps) == 0 {
		return 0
	}
	return r.Steps[len(r.Steps)-1].Rate
}

// attemptsShort counts the runs of the last rate: "3 attempts".
func attemptsShort(r Result) string {
	n := 0
	if len(r.Steps) > 0 {
		n = r.Steps[len(r.Steps)-1].Attempt
	}
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// firstFailingRate is the rate of the first judged step that failed.
func firstFailingRate(r Result) float64 {
	for _, s := range r.Steps {
		if !s.Passed && s.Judged {
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
