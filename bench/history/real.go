package main

import (
	"fmt"
	"math"
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

// series is one endpoint's figure over the recorded runs.
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

// sigmas are the noise levels of the base phase: the standard deviation of
// the log of each endpoint's p95 between its runs, with what they measure.
func (r *Recorded) sigmas() (levels []float64, labels []string) {
	starts, _ := r.phases()
	end := len(r.Runs)
	if len(starts) > 1 {
		end = starts[1]
	}
	for _, ep := range r.endpoints() {
		levels = append(levels, math.Round(100*logSD(r.series(ep, history.P95)[:end]))/100)
		labels = append(labels, "p95 of `"+ep+"` between real runs")
	}
	return levels, labels
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

// section says what the method finds in the recorded series: for each
// endpoint and latency figure, the noise of the base phase, and after how
// many runs of each new phase a change point at its start (±1 run) is
// reported when the method runs after every run, as a nightly job would;
// and the change points it reports elsewhere (false alarms).
func (r *Recorded) section(m history.Method) string {
	starts, names := r.phases()
	var sb strings.Builder
	fmt.Fprintf(&sb, "#### Real series: the demo shop, %d runs in %d phases (%s), `bench/history/record.sh`\n\n", len(r.Runs), len(names), strings.Join(names, " → "))
	head := []string{"endpoint", "figure", "noise σ (base)"}
	for _, n := range names[1:] {
		head = append(head, n+": found after")
	}
	head = append(head, "other change points")
	sb.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat("---|", len(head)) + "\n")
	for _, ep := range r.endpoints() {
		for _, f := range []history.Figure{history.P50, history.P95, history.P99} {
			xs := r.series(ep, f)
			row := []string{"`" + ep + "`", f.String(), fmt.Sprintf("%.1f %%", 100*logSD(xs[:starts[min(1, len(starts)-1)]]))}
			for i := 1; i < len(starts); i++ {
				row = append(row, foundAfter(m, xs, starts, i))
			}
			row = append(row, fmt.Sprint(others(m.Detect(xs, true), starts)))
			sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	return sb.String()
}

// foundAfter is after how many runs of phase i its start is found.
func foundAfter(m history.Method, xs []float64, starts []int, i int) string {
	end := len(xs)
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	for k := 1; starts[i]+k <= end; k++ {
		for _, st := range m.Detect(xs[:starts[i]+k], true) {
			if st.At >= starts[i]-1 && st.At <= starts[i]+1 {
				return fmt.Sprintf("%d runs (%+.0f %%)", k, 100*st.Change)
			}
		}
	}
	return "not found"
}

// others counts change points on the whole series away from every phase start.
func others(steps []history.Step, starts []int) int {
	n := 0
	for _, st := range steps {
		near := false
		for _, s := range starts[1:] {
			near = near || st.At >= s-1 && st.At <= s+1
		}
		if !near {
			n++
		}
	}
	return n
}
