package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/units"
)

// WriteCapacityText writes a capacity search's outcome: the highest sustainable rate, the
// knee, what failed first, the USL fit, retries, why it stopped, and every
// run of a step.
func WriteCapacityText(w io.Writer, r capacity.Result) error {
	var b strings.Builder
	b.WriteString("Capacity search\n")
	fmt.Fprintf(&b, "  highest sustainable rate  %s\n", highestText(r))
	if k := r.Knee; k != nil {
		fmt.Fprintf(&b, "  knee                      %s/s: p95 within %s× its low-load %s here (%s), past it at every higher rate (%s at %s/s)\n",
			units.Number(k.Rate), units.Number(r.Config.KneeFactor), units.Duration(k.Base), units.Duration(k.P95), units.Duration(k.NextP95), units.Number(k.NextRate))
	} else {
		b.WriteString("  knee                      not found: too few steps, or p95 did not climb within the rates tried\n")
	}
	if len(r.FirstFailure) > 0 {
		fmt.Fprintf(&b, "  failed first              at %s/s: %s\n", units.Number(firstFailingRate(r)), strings.Join(r.FirstFailure, "; "))
	}
	fmt.Fprintf(&b, "  scalability (USL fit)     %s\n", uslText(r))
	if r.Retries > 0 {
		fmt.Fprintf(&b, "  retried                   %s\n", retriesText(r))
	}
	fmt.Fprintf(&b, "  stopped                   %s: %s\n\n", r.Stop, r.StopDetail)
	cells := [][]string{{"#", "phase", "rate/s", "done/s", "p95", "p99", "errors", "dropped", "gen CPU", "lag p99", "host CPU", "SLO"}}
	for i, s := range r.Steps {
		cells = append(cells, []string{strconv.Itoa(i + 1), phaseText(s), units.Number(s.Rate), units.Number(s.Throughput), units.Duration(s.P95), units.Duration(s.P99),
			units.Percent(s.ErrorRate), units.Count(s.Dropped), units.Share(s.GeneratorCPU),
			units.Duration(s.LagP99), hostText(s.StepResult), verdictText(s, " ")})
	}
	table(&b, "  ", "rrrrrrrrrrrl", cells)
	_, err := io.WriteString(w, b.String())
	return err
}

// highestText is the headline: the highest sustainable rate and how sure it is.
func highestText(r capacity.Result) string {
	held := "no rate passed the SLO"
	if r.LowestFailing == 0 {
		held = "no rate could be judged"
	}
	if r.Highest > 0 {
		held = "the SLO held up to " + units.Number(r.Highest) + "/s"
	}
	switch {
	case r.Stop == capacity.HostBusy:
		return fmt.Sprintf("not determined: the load generator's host was too busy to generate %s/s (%s); %s",
			units.Number(lastRate(r)), attemptsShort(r), held)
	case r.Highest > 0 && r.Stop == capacity.GeneratorSaturated:
		return fmt.Sprintf("at least %s/s (the generator dropped iterations past it: raise max_vus to go further)", units.Number(r.Highest))
	case r.Highest > 0 && r.LowestFailing > 0:
		return fmt.Sprintf("%s/s (the SLO held at %s/s and failed at %s/s)", units.Number(r.Highest), units.Number(r.Highest), units.Number(r.LowestFailing))
	case r.Highest > 0:
		return fmt.Sprintf("at least %s/s (no step failed the SLO)", units.Number(r.Highest))
	}
	return "none found: no step passed the SLO"
}

// uslText is the USL fit in words, or why none is shown.
func uslText(r capacity.Result) string {
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
		peak = "its peak lies past " + units.Multiple(capacity.USLReach) + " the measured range: an extrapolation, not shown"
	case math.IsInf(f.PeakConcurrency, 1):
		peak = fmt.Sprintf("no peak (κ = 0): throughput approaches %s/s", units.Number(f.PeakThroughput))
	default:
		peak = fmt.Sprintf("peak %s/s at %s in flight", units.Number(f.PeakThroughput), units.Number(f.PeakConcurrency))
	}
	return fmt.Sprintf("λ=%s/s per request in flight, σ=%s contention, κ=%s coherency; %s; R²=%s over %s",
		units.Number(f.Lambda), units.Number(f.Sigma), units.Number(f.Kappa), peak, units.Number(f.R2), units.CountOf(int64(f.Points), "step", "steps"))
}

// retriesText says which rates were run again, and why.
func retriesText(r capacity.Result) string {
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
		rates[i] = units.Number(rate) + "/s"
		if n := times[rate]; n > 1 {
			rates[i] += " " + units.CountOf(int64(n), "time", "times")
		}
	}
	return fmt.Sprintf("%s not judged because the load generator's host was busy, and run again (%s); see the table",
		units.CountOf(int64(r.Retries), "run", "runs"), strings.Join(rates, ", "))
}

// verdictText is a run's outcome: pass, FAIL with what failed, or why it
// was not judged; sep joins the failed thresholds to the word FAIL.
func verdictText(s capacity.Record, sep string) string {
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
func phaseText(s capacity.Record) string {
	if s.Attempt > 1 {
		return fmt.Sprintf("%s, try %d", s.Phase, s.Attempt)
	}
	return string(s.Phase)
}

// hostText is the host's CPU over a run, with steal when there was any.
func hostText(s capacity.StepResult) string {
	if !s.HostKnown {
		return "-"
	}
	t := units.Share(s.HostCPU)
	if s.HostSteal >= 0.005 {
		t += " (steal " + units.Share(s.HostSteal) + ")"
	}
	return t
}

// lastRate is the rate of the last run.
func lastRate(r capacity.Result) float64 {
	if len(r.Steps) == 0 {
		return 0
	}
	return r.Steps[len(r.Steps)-1].Rate
}

// attemptsShort counts the runs of the last rate: "3 attempts".
func attemptsShort(r capacity.Result) string {
	n := 0
	if len(r.Steps) > 0 {
		n = r.Steps[len(r.Steps)-1].Attempt
	}
	return units.CountOf(int64(n), "attempt", "attempts")
}

// firstFailingRate is the rate of the first judged step that failed.
func firstFailingRate(r capacity.Result) float64 {
	for _, s := range r.Steps {
		if !s.Passed && s.Judged {
			return s.Rate
		}
	}
	return 0
}
