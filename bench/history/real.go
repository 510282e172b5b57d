package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/history"
)

// phases returns where each phase of the recording starts (its first run's
// index), in order, and their names.
func (r *Recorded) phases() (starts []int, names []string) {
	for i, run := range r.Runs {
		p := run.Tags["phase"]
		if i == 0 || p != names[len(names)-1] {
			starts, names = append(starts, i), append(names, p)
		}
	}
	return starts, names
}

// series is one endpoint's figure over the recorded runs, as change points
// read it: NaN for a run that counts for none (its generator disturbed).
func (r *Recorded) series(ep string, f history.Figure) []float64 {
	s := history.Series{Runs: r.Runs}
	return s.Values(ep, f)
}

func (r *Recorded) endpoints() []string {
	var names []string
	for _, e := range r.Runs[0].Endpoints {
		names = append(names, e.Name)
	}
	return names
}

// method is the one history uses on this recording's load shape: its
// level shared over every endpoint's five figures.
func (r *Recorded) method(m history.Method) history.Method {
	return m.Among(len(r.endpoints()) * len(history.Figures))
}

// sigmas are the noise levels measured between the base phase's runs: the
// standard deviation of the log of each endpoint's p50 and p95, with what
// they measure.
func (r *Recorded) sigmas() (levels []float64, labels []string) {
	starts, _ := r.phases()
	for _, ep := range r.endpoints() {
		for _, f := range []history.Figure{history.P50, history.P95} {
			sd := phaseSD(r.series(ep, f), starts, 0)
			digits := 100.0 // two endpoints of one noise share a row
			if sd < 0.1 {
				digits = 1000
			}
			levels = append(levels, math.Round(digits*sd)/digits)
			labels = append(labels, f.String()+" of `"+ep+"` between real runs")
		}
	}
	return levels, labels
}

// bounds is the half-open range of runs of phase i.
func bounds(n int, starts []int, i int) (from, to int) {
	to = n
	if i+1 < len(starts) {
		to = starts[i+1]
	}
	return starts[i], to
}

// counted is the values of xs[from:to] that count for change points.
func counted(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if x > 0 && !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// phaseSD is the noise between phase i's runs: the standard deviation of
// the log of its counted values.
func phaseSD(xs []float64, starts []int, i int) float64 {
	from, to := bounds(len(xs), starts, i)
	return logSD(counted(xs[from:to]))
}

// phaseStep is phase i's level against phase i−1's, each the median of its
// counted runs: the step as recorded, a ratio − 1.
func phaseStep(xs []float64, starts []int, i int) float64 {
	level := func(j int) float64 {
		from, to := bounds(len(xs), starts, j)
		return median(counted(xs[from:to]))
	}
	return level(i)/level(i-1) - 1
}

// median is the middle value of xs (bench/history may not import stats).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func logSD(xs []float64) float64 {
	var n, sum, sq float64
	for _, x := range xs {
		if x > 0 {
			n, sum = n+1, sum+math.Log(x)
		}
	}
	mean := sum / n
	for _, x := range xs {
		if x > 0 {
			sq += (math.Log(x) - mean) * (math.Log(x) - mean)
		}
	}
	return math.Sqrt(sq / (n - 1))
}

// finding is when a phase's start was first reported, the method running
// after every run as a nightly job would.
type finding struct {
	Found   bool
	Runs    int          // runs of the phase up to the one after which it was reported
	Counted int          // of those, the runs that count for change points
	Step    history.Step // the change point reported
}

// find is when phase i's start is first reported: a change point within
// one run of it, of the sign of the phase's step.
func find(m history.Method, xs []float64, starts []int, i int) finding {
	from, to := bounds(len(xs), starts, i)
	up := phaseStep(xs, starts, i) > 0
	for k := 1; from+k <= to; k++ {
		for _, st := range m.Detect(xs[:from+k], true) {
			if st.At >= from-1 && st.At <= from+1 && st.Change > 0 == up {
				return finding{Found: true, Runs: k, Counted: len(counted(xs[from : from+k])), Step: st}
			}
		}
	}
	return finding{}
}

// strays are the runs at which a change point away from every phase start
// (±1 run) was reported, the method running after every run: the false
// alarms a nightly job would have seen.
func strays(m history.Method, xs []float64, starts []int, relative bool) []int {
	var at []int
	for k := 2 * m.MinRuns; k <= len(xs); k++ {
		for _, st := range m.Detect(xs[:k], relative) {
			if !nearStart(st.At, starts) && !slices.Contains(at, st.At) {
				at = append(at, st.At)
			}
		}
	}
	slices.Sort(at)
	return at
}

func nearStart(at int, starts []int) bool {
	for _, s := range starts[1:] {
		if at >= s-1 && at <= s+1 {
			return true
		}
	}
	return false
}

// section says what the method finds in the recorded series, for each
// endpoint and latency figure: the noise of each phase, the step each new
// phase made and after how many of its runs the method, running after
// every run, first reported it; the change points it reported elsewhere
// (false alarms); and those of the whole series judged at its end.
func (r *Recorded) section(m history.Method) string {
	starts, names := r.phases()
	m = r.method(m)
	var sb strings.Builder
	sb.WriteString(r.heading(starts, names))
	head := []string{"endpoint", "figure", "noise σ (" + strings.Join(names, " / ") + ")"}
	for _, n := range names[1:] {
		head = append(head, n+": step, found after")
	}
	if r.Server != nil {
		head = append(head, "the server's own p(50) step ("+strings.Join(names[1:], " / ")+")")
	}
	head = append(head, "false alarms while running", "the whole series at its end")
	sb.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat("---|", len(head)) + "\n")
	for _, ep := range r.endpoints() {
		for _, f := range []history.Figure{history.P50, history.P95, history.P99} {
			xs := r.series(ep, f)
			var sds []string
			for i := range starts {
				sds = append(sds, strings.TrimSuffix(pct(phaseSD(xs, starts, i)), " %"))
			}
			row := []string{"`" + ep + "`", f.String(), strings.Join(sds, " / ") + " %"}
			for i := 1; i < len(starts); i++ {
				row = append(row, fmt.Sprintf("%+.0f %%, %s", 100*phaseStep(xs, starts, i), find(m, xs, starts, i)))
			}
			if r.Server != nil {
				row = append(row, "″")
				if f == history.P50 {
					row[len(row)-1] = r.serverSteps(ep, starts)
				}
			}
			row = append(row, runList(strays(m, xs, starts, true)), ends(m.Detect(xs, true)))
			sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	return sb.String()
}

// heading names the recording, its phases and the runs that count for no
// change point.
func (r *Recorded) heading(starts []int, names []string) string {
	var phases []string
	for i, n := range names {
		from, to := bounds(len(r.Runs), starts, i)
		phases = append(phases, fmt.Sprintf("%s %d", n, to-from))
	}
	var out []int
	for i := range r.Runs {
		if !r.Runs[i].Analysed() {
			out = append(out, i)
		}
	}
	at := "recorded " + r.Runs[0].Start.UTC().Format("2006-01-02 15:04") + " UTC"
	if r.Commit != "" {
		at += " by loadlens " + r.Commit
	}
	s := fmt.Sprintf("#### Real series: %s, %d runs in %d phases (%s), %s, `%s`\n\n", r.Title, len(r.Runs), len(names), strings.Join(phases, " → "), at, r.Script)
	if len(out) > 0 {
		s += fmt.Sprintf("Runs are numbered from 1. As in `loadlens history`, %s (%d of %d) counted for no change point: the run's own diagnosis found the load generator or its host limited it.\n", runList(out), len(out), len(r.Runs))
	}
	s += "A step is the ratio of the phases' medians (of their counted runs); it is found after *n* runs of its phase (*c* of them counted), the method running after every run.\n"
	if r.Server != nil {
		s += "*The server's own* is the same ratio of the server's median handler time, which it timed itself: the step that was really there.\n"
	}
	s += "\n"
	return s
}

func (f finding) String() string {
	if !f.Found {
		return "not found"
	}
	return fmt.Sprintf("after %d runs (%d counted)", f.Runs, f.Counted)
}

// runList names runs by their number from 1.
func runList(at []int) string {
	if len(at) == 0 {
		return "none"
	}
	var s []string
	for _, a := range at {
		s = append(s, strconv.Itoa(a+1))
	}
	if len(s) == 1 {
		return "run " + s[0]
	}
	return "runs " + strings.Join(s, ", ")
}

// ends writes the change points of the whole series: the run each starts at and its step.
func ends(steps []history.Step) string {
	if len(steps) == 0 {
		return "none"
	}
	var s []string
	for _, st := range steps {
		s = append(s, fmt.Sprintf("run %d %+.0f %%", st.At+1, 100*st.Change))
	}
	return strings.Join(s, "; ")
}

// serverPath is the step server's path of endpoint ep ("a10 · GET /a"
// is /a), "" when the server did not time it.
func (r *Recorded) serverPath(ep string) string {
	i := strings.LastIndex(ep, " ")
	if i < 0 || r.Server == nil {
		return ""
	}
	if _, ok := r.Server[0][ep[i+1:]]; !ok {
		return ""
	}
	return ep[i+1:]
}

// serverSeries is the server's own median handler time of ep in each run,
// NaN where it did not time it.
func (r *Recorded) serverSeries(ep string) []float64 {
	path := r.serverPath(ep)
	xs := make([]float64, len(r.Runs))
	for i := range xs {
		t, ok := r.Server[i][path]
		xs[i] = math.NaN()
		if ok && path != "" {
			xs[i] = float64(t.P50)
		}
	}
	return xs
}

// serverSteps writes the server's own step of ep at each phase's start.
func (r *Recorded) serverSteps(ep string, starts []int) string {
	if r.serverPath(ep) == "" {
		return "–"
	}
	xs := r.serverSeries(ep)
	var s []string
	for i := 1; i < len(starts); i++ {
		s = append(s, fmt.Sprintf("%+.0f %%", 100*phaseStep(xs, starts, i)))
	}
	return strings.Join(s, " / ")
}
