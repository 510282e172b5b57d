package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/units"
)

// kneeText says where the knee is and why: its p95 within the limit it
// was judged against (KneeFactor × the search's lowest p95), every higher
// rate past it, and the low-load p95 of the steps below it when there are
// any (a figure beside the rule, so a reader can check the rule's sum).
func kneeText(r capacity.Result, k *capacity.Knee) string {
	next := fmt.Sprintf("(%s at %s)", units.Duration(k.NextP95), capacity.Iterations(k.NextRate))
	factor := units.Number(r.Config.KneeFactor)
	if k.Limit == 0 { // a capacity.json of an older loadlens: its knee judged on the low-load p95
		return fmt.Sprintf("%s: p95 %s here, past %s× the low-load p95 at every higher rate %s",
			bothRates(r, k.Rate), units.Duration(k.P95), factor, next)
	}
	least := time.Duration(float64(k.Limit) / r.Config.KneeFactor)
	text := fmt.Sprintf("%s: p95 %s here, within %s (%s× the search's lowest p95, %s), past it at every higher rate %s",
		bothRates(r, k.Rate), units.Duration(k.P95), units.Duration(k.Limit), factor, units.Duration(least), next)
	if k.Base == 0 {
		return text + "; the lowest rate tried"
	}
	return text + "; low-load p95 " + units.Duration(k.Base) + " below it"
}

// WriteCapacityText writes a capacity search's outcome: the highest sustainable rate, the
// knee, what failed first, the USL fit, retries, why it stopped, and every
// run of a step.
func WriteCapacityText(w io.Writer, r capacity.Result) error {
	var b strings.Builder
	b.WriteString("Capacity search\n")
	kv := func(label, text string) { // the label's column, then the text wrapped under itself
		b.WriteString(units.Wrap(text, units.Columns, fmt.Sprintf("  %-26s", label), strings.Repeat(" ", 28)))
	}
	kv("highest sustainable rate", highestText(r))
	if k := r.Knee; k != nil {
		kv("knee", kneeText(r, k))
	} else {
		kv("knee", "not found: too few steps, or p95 did not climb below the first failing rate")
	}
	if len(r.FirstFailure) > 0 {
		kv("failed first", fmt.Sprintf("at %s: %s", capacity.Iterations(firstFailingRate(r)), strings.Join(r.FirstFailure, "; ")))
	}
	kv("scalability (USL fit)", uslText(r))
	if r.Retries > 0 {
		kv("retried", retriesText(r))
	}
	stopped := string(r.Stop)
	if r.StopDetail != "" {
		stopped += ": " + r.StopDetail
	}
	kv("stopped", stopped)
	if r.Thin != "" {
		kv("thin steps", r.Thin)
	}
	b.WriteString("\n")
	cells := [][]string{{"#", "phase", "iter/s", r.Config.Counts().PerSecond(), "p95", "p99", "errors", "dropped", "gen CPU", "lag p99", "host CPU", "SLO"}}
	var notes []string // a verdict with more to say than its word, under the table
	stolen := false
	for i, s := range r.Steps {
		verdict := strings.TrimSpace(verdictText(s, " "))
		if word := verdictWord(verdict); word != verdict {
			notes = append(notes, wrapAfter("  "+superscript(len(notes)+1)+" ", "step "+strconv.Itoa(i+1)+": "+verdict, units.Columns))
			verdict = word + " " + superscript(len(notes))
		}
		phase := string(s.Phase)
		if s.Attempt > 1 { // the row above is the same step's first try: its phase is there
			phase = "try " + strconv.Itoa(s.Attempt)
		}
		cells = append(cells, []string{strconv.Itoa(i + 1), phase, units.Number(s.Rate), units.Number(s.Throughput), units.Duration(s.P95), units.Duration(s.P99),
			units.Percent(s.ErrorRate), units.Count(s.Dropped), units.Share(s.GeneratorCPU),
			units.Duration(s.LagP99), hostCell(s.StepResult), verdict})
		if s.HostKnown && s.HostSteal >= 0.005 {
			stolen = true
		}
	}
	table(&b, "  ", "rrrrrrrrrrrl", cells)
	b.WriteString(units.Wrap(rateColumns(r), units.Columns, "  ", "  "))
	b.WriteString(strings.Join(notes, ""))
	if stolen {
		b.WriteString("  host CPU \"st\": the share of it the hypervisor gave to other machines (steal)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdictWord is the first word of a step's verdict (verdictText): pass,
// FAIL, or "—" for not judged; the table shows it, and the rest under the
// table.
func verdictWord(v string) string {
	for _, w := range []string{"pass", "FAIL"} {
		if strings.HasPrefix(v, w) {
			return w
		}
	}
	if strings.HasPrefix(v, "not judged") {
		return "—"
	}
	return v
}

// highestText is the headline: the highest sustainable rate and how sure it is.
func highestText(r capacity.Result) string {
	held := "no rate passed the SLO"
	if r.LowestFailing == 0 {
		held = "no rate could be judged"
	}
	if r.Highest > 0 {
		held = "the SLO held up to " + bothRates(r, r.Highest)
	}
	switch {
	case r.Stop == capacity.TargetFailed:
		return fmt.Sprintf("none: every %s failed at the first step (%s)", r.Config.Counts().One, capacity.Iterations(lastRate(r)))
	case r.Stop == capacity.HostBusy:
		return "not determined: " + busyHostText(r) + "; " + held
	case r.Unjudged > 0:
		return "not determined: " + unjudgedText(r)
	case r.Highest == 0 && r.LowestFailing == 0 && r.Stop != capacity.NothingPassed:
		return fmt.Sprintf("not determined: no step could be judged (%s)", r.Stop) // exits 3, as a busy host's
	case r.Highest > 0 && r.Stop == capacity.GeneratorSaturated:
		return fmt.Sprintf("at least %s (the generator dropped iterations past it: raise max_vus to go further)", bothRates(r, r.Highest))
	case r.Highest > 0 && r.LowestFailing > 0:
		return fmt.Sprintf("%s (the SLO held at %s and failed at %s)", bothRates(r, r.Highest), capacity.Iterations(r.Highest), capacity.Iterations(r.LowestFailing))
	case r.Highest > 0:
		return fmt.Sprintf("at least %s (no step failed the SLO)", bothRates(r, r.Highest))
	}
	return "none found: no step passed the SLO"
}

// busyHostText says whose host was too busy for a search stopped "host too
// busy": the target's (other processes took its CPU) or the load
// generator's, at its last rate; the terminal's and capacity.html's
// headlines both say it.
func busyHostText(r capacity.Result) string {
	if lastStarved(r) {
		return fmt.Sprintf("the host was too busy: other processes took the target's CPU at %s (%s)", capacity.Iterations(lastRate(r)), attemptsShort(r))
	}
	return fmt.Sprintf("the load generator's host was too busy to generate %s (%s)", capacity.Iterations(lastRate(r)), attemptsShort(r))
}

// lastStarved reports whether the search's last run was not judged for
// its target starved of CPU by the host's other processes, not for the
// generator's host: a search stopped "host too busy" on it says so.
func lastStarved(r capacity.Result) bool {
	return len(r.Steps) > 0 && r.Steps[len(r.Steps)-1].Starved != ""
}

// unjudgedText says what a search that ended with a rate above its highest
// pass unjudged found: at least that pass, and which rate the busy host
// left unjudged, with the failure above it if any (exits 3).
func unjudgedText(r capacity.Result) string {
	text := "no rate passed the SLO (" + capacity.Iterations(r.Unjudged)
	if r.Highest > 0 {
		text = "at least " + bothRates(r, r.Highest) + " (" + capacity.Iterations(r.Unjudged) + " above it"
	}
	text += fmt.Sprintf(" was not judged: %s on every run of it, and the search ended (%s) before one could be judged", unjudgedHost(r), r.Stop)
	if r.LowestFailing > 0 {
		text += "; the SLO failed at " + capacity.Iterations(r.LowestFailing)
	}
	return text + ")"
}

// unjudgedHost says whose host left the rate r.Unjudged unjudged: the
// target's when a run of it was starved of CPU, else the generator's.
func unjudgedHost(r capacity.Result) string {
	for _, s := range r.Steps {
		if s.Rate == r.Unjudged && s.Starved != "" {
			return "the host was busy (other processes took the target's CPU)"
		}
	}
	return "the generator's host was busy"
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
	u := r.Config.Counts()
	switch {
	case !f.PeakInReach:
		peak = "its peak lies past " + units.Multiple(capacity.USLReach) + " the measured range: an extrapolation, not shown"
	case math.IsInf(f.PeakConcurrency, 1):
		peak = fmt.Sprintf("no peak (κ = 0): throughput approaches %s", u.Rate(f.PeakThroughput))
	default:
		peak = fmt.Sprintf("peak %s at %s in flight", u.Rate(f.PeakThroughput), u.Quantity(f.PeakConcurrency))
	}
	return fmt.Sprintf("λ=%s per %s in flight, σ=%s contention, κ=%s coherency; %s; R²=%s over %s",
		u.Rate(f.Lambda), u.One, units.Number(f.Sigma), units.Number(f.Kappa), peak, units.Number(f.R2), units.CountOf(int64(f.Points), "step", "steps"))
}

// retriesText says which rates were run again, and why.
func retriesText(r capacity.Result) string {
	var order []float64
	times := map[float64]int{}
	why := "the load generator's host was busy"
	for _, s := range r.Steps {
		if s.Retried && s.Starved != "" {
			why = "the host was busy (the generator's, or other processes took the target's CPU)"
		}
		if s.Retried {
			if times[s.Rate] == 0 {
				order = append(order, s.Rate)
			}
			times[s.Rate]++
		}
	}
	rates := make([]string, len(order))
	for i, rate := range order {
		rates[i] = capacity.Iterations(rate)
		if n := times[rate]; n > 1 {
			rates[i] += " " + units.CountOf(int64(n), "time", "times")
		}
	}
	return fmt.Sprintf("%s not judged because %s, and run again (%s); see the table",
		units.CountOf(int64(r.Retries), "run", "runs"), why, strings.Join(rates, ", "))
}

// bothRates writes a rate of the search in iterations per second and in
// the requests (calls, sessions) per second they offer, or at the highest
// sustainable rate what its step completed: "675 iterations/s, 1,350 req/s".
func bothRates(r capacity.Result, rate float64) string {
	requests := rate * requestsPerIteration(r)
	if rate == r.Highest && r.HighestRequests > 0 {
		requests = r.HighestRequests // what that step completed
	}
	return capacity.Iterations(rate) + ", " + r.Config.Counts().Rate(requests)
}

// requestsPerIteration is the search's requests per iteration; a
// capacity.json of an older build has none, and its iterations were
// taken for requests: 1.
func requestsPerIteration(r capacity.Result) float64 {
	if r.Config.RequestsPerIteration > 0 {
		return r.Config.RequestsPerIteration
	}
	return 1
}

// rateColumns says what the table's two rates count, and what its
// latencies are of when not every request's duration.
func rateColumns(r capacity.Result) string {
	u := r.Config.Counts()
	s := "iter/s: iterations offered per second (" + u.Quantity(requestsPerIteration(r)) +
		" each); " + u.PerSecond() + ": " + u.Many + " completed per second of the hold"
	if l := r.Config.Latency; l != "" && l != "http_req_duration" {
		s += "; p95, p99: " + l
	}
	return s
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
	case s.Busy != "" && s.Stands == "": // a capacity.json of a build before Stands
		verdict += " (on a busy host, but " + capacity.LatencyStands + ": " + s.Busy + ")"
	case s.Busy != "":
		verdict += " (the target's: " + s.Stands + "; the host was busy too: " + s.Busy + ")"
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

// hostCell is hostText for the terminal's table, narrower and in whole
// percents: "99% st 30%", "99% st <1%" (a 12-column row with "99.1% st
// 0.864%" went past the terminal's width).
func hostCell(s capacity.StepResult) string {
	if !s.HostKnown {
		return "-"
	}
	t := wholePercent(s.HostCPU)
	if s.HostSteal >= 0.005 {
		t += " st " + wholePercent(s.HostSteal)
	}
	return t
}

// wholePercent writes a share in whole percents, "<1%" for a sliver.
func wholePercent(f float64) string {
	if f > 0 && f < 0.01 {
		return "<1%"
	}
	return strconv.FormatFloat(math.Round(100*f), 'f', 0, 64) + "%"
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
