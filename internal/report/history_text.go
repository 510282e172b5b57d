package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/units"
)

// historyRows is how many runs a test's text tables show, newest first:
// history.html draws them all.
const historyRows = 30

// historyStarted is a run's start in history's tables, to the minute.
const historyStarted = "2006-01-02 15:04"

// startedLayout is how a table writes its runs' starts: to the minute, or
// to the second when two of them share a minute and would read alike.
func startedLayout(starts []time.Time) string {
	seen := map[string]bool{}
	for _, st := range starts {
		k := st.Local().Format(historyStarted)
		if seen[k] {
			return historyStarted + ":05"
		}
		seen[k] = true
	}
	return historyStarted
}

// runStarts are the starts of runs.
func runStarts(runs []history.Run) []time.Time {
	out := make([]time.Time, len(runs))
	for i := range runs {
		out[i] = runs[i].Start
	}
	return out
}

// WriteHistoryList prints every test's history, newest test first: its
// runs, its newest run, its p95 trend and its newest change point.
func WriteHistoryList(w io.Writer, tests []*history.Test) error {
	rows := [][]string{{"TEST", "RUNS", "NEWEST RUN", "RESULT", "P95 TREND", "CAPACITY", "NEWEST CHANGE"}}
	var newest []time.Time
	for _, t := range tests {
		newest = append(newest, t.Newest.Start)
	}
	started := startedLayout(newest)
	for _, t := range tests {
		s := t.Current()
		trend, change := "-", "none"
		if ep := busiest(s); ep != "" {
			trend = sparkline(lastN(s.Shown(ep, history.P95), 16))
		}
		if c, ok := newestChange(s); ok {
			change = c.Endpoint + " " + c.Figure.String() + " " + stepText(c) + " from " + s.Runs[c.At].Start.Local().Format("01-02")
		}
		capacity := "-"
		if t.Capacity != nil {
			capacity = capacityShort(t.Capacity)
		}
		rows = append(rows, []string{t.Name, units.Count(int64(t.Runs)), t.Newest.Start.Local().Format(started),
			historyResult(&t.Newest), trend, capacity, change})
	}
	var sb strings.Builder
	table(&sb, "", "lrlllrl", rows)
	sb.WriteString("\n`loadlens history <test>` shows one test's runs per endpoint; --html draws them\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteHistory prints one test's history: where its load shape changed,
// then per series its runs, each endpoint's figures and its change points.
func WriteHistory(w io.Writer, t *history.Test, m history.Method) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s · %s", t.Name, units.CountOf(int64(t.Runs), "run", "runs"))
	if len(t.Series) > 1 {
		fmt.Fprintf(&sb, " · %s (runs of different loads are never compared)", units.CountOf(int64(len(t.Series)), "load shape", "load shapes"))
	}
	sb.WriteString("\n")
	for _, sh := range t.Shifts {
		fmt.Fprintf(&sb, "  load shape changed at %s (%s):\n    from %s\n    to   %s\n", sh.Run.ID, sh.Run.Start.Local().Format(historyStarted), sh.From, sh.To)
	}
	for i := len(t.Series) - 1; i >= 0; i-- { // the current shape first
		writeSeries(&sb, t.Series[i], m)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func writeSeries(sb *strings.Builder, s *history.Series, m history.Method) {
	fmt.Fprintf(sb, "\nload shape %s: %s\n", s.ShapeID, s.Shape)
	first := max(0, len(s.Runs)-historyRows)
	// the runs table's starts and each endpoint's: the same rows, alike
	started := startedLayout(runStarts(s.Runs[first:]))
	if s.Runs[len(s.Runs)-1].Capacity != nil { // a series of capacity searches: their outcome, not a run's figures
		writeSearches(sb, s, first, started)
		return
	}
	rows := [][]string{{"RUN", "STARTED", "RESULT", "RPS", "ERR%", "FINDINGS", "TAGS"}}
	for i := len(s.Runs) - 1; i >= first; i-- {
		r := &s.Runs[i]
		rows = append(rows, []string{r.ID, r.Start.Local().Format(started), historyResult(r), units.Number(r.RPS),
			units.Percent(r.ErrorRate), units.Count(int64(r.Findings)), history.TagText(r.Tags)})
	}
	table(sb, "  ", "mllrrrm", rows)
	if first > 0 {
		fmt.Fprintf(sb, "  … %s (history.html draws every run)\n", units.CountOf(int64(first), "older run", "older runs"))
	}
	disturbedNote(sb, s.Runs[first:])
	for _, ep := range s.Endpoints {
		writeEndpointHistory(sb, s, ep, first, started)
	}
	writeChanges(sb, s, m)
	writeLeftOut(sb, s.Runs[first:])
}

// writeLeftOut says, run by run, which figures count for no change point
// and why: a run is left out only of what its generator could have moved.
func writeLeftOut(sb *strings.Builder, runs []history.Run) {
	head := false
	for i := len(runs) - 1; i >= 0; i-- {
		why := runs[i].LeftOutText()
		if why == "" || runs[i].Capacity != nil {
			continue
		}
		if !head {
			sb.WriteString("  left out of change points:\n")
			head = true
		}
		sb.WriteString(wrap(runs[i].ID+": "+why, units.Columns, "    ", "      "))
	}
}

// writeSearches prints a series of capacity searches, newest first: each
// one's highest sustainable rate, in iterations/s and req/s; started is
// how its starts are written (startedLayout).
func writeSearches(sb *strings.Builder, s *history.Series, first int, started string) {
	rows := [][]string{{"SEARCH", "STARTED", "RESULT", "CAPACITY", "REQ/S", "STEPS", "STOPPED", "TAGS"}}
	for i := len(s.Runs) - 1; i >= first; i-- {
		r := &s.Runs[i]
		c := r.Capacity
		rows = append(rows, []string{r.ID, r.Start.Local().Format(started), historyResult(r), capacityShort(r),
			units.Rate(c.HighestRequests, "req"), units.Count(int64(c.Steps)), c.Stop, history.TagText(r.Tags)})
	}
	table(sb, "  ", "mllrrrlm", rows)
	if first > 0 {
		fmt.Fprintf(sb, "  … %s (history.html lists every one)\n", units.CountOf(int64(first), "older search", "older searches"))
	}
}

// capacityShort is a search's highest sustainable rate, "41.2 iter/s", or
// "none" when no step held the SLO.
func capacityShort(r *history.Run) string {
	if r.Capacity == nil || r.Capacity.Highest <= 0 {
		return "none"
	}
	return units.Rate(r.Capacity.Highest, "iter")
}

// writeEndpointHistory prints one endpoint's figures, newest run first; a
// '◆' marks the first run of a new level; started is how its starts are
// written (startedLayout).
func writeEndpointHistory(sb *strings.Builder, s *history.Series, ep string, first int, started string) {
	if why := noFigures(s, ep, first); why != "" {
		sb.WriteString("\n" + wrap(ep+": no figures, "+why, units.Columns, "  ", "    "))
		return
	}
	fmt.Fprintf(sb, "\n  %s\n", ep)
	starts := map[int]bool{}
	for _, c := range s.Changes {
		if c.Endpoint == ep {
			starts[c.At] = true
		}
	}
	rows := [][]string{{"STARTED", "", "P50", "P95", "P99", "RPS", "ERR%"}}
	vals := make([][]float64, len(history.Figures))
	for i, f := range history.Figures {
		vals[i] = s.Shown(ep, f)
	}
	for i := len(s.Runs) - 1; i >= first; i-- {
		mark := ""
		if starts[i] {
			mark = "◆"
		}
		rows = append(rows, []string{s.Runs[i].Start.Local().Format(started), mark, units.DurationMillis(vals[0][i]),
			units.DurationMillis(vals[1][i]), units.DurationMillis(vals[2][i]), rateOrNone(vals[3][i]), units.Percent(vals[4][i])})
	}
	table(sb, "    ", "llrrrrr", rows)
}

// noFigures says why an endpoint has no figure in the runs shown (from
// first), or "" when it has one: a table of dashes under its header read
// as a table with no rows.
func noFigures(s *history.Series, ep string, first int) string {
	completed := 0
	for i := first; i < len(s.Runs); i++ {
		r := &s.Runs[i]
		if r.Status != "completed" {
			continue
		}
		completed++
		if e, ok := r.Endpoint(ep); ok && e.Requests > 0 {
			return ""
		}
	}
	if completed == 0 {
		return "as no run shown completed: only a completed run's figures measured the load its shape says"
	}
	return "as no completed run shown sent it a request"
}

func writeChanges(sb *strings.Builder, s *history.Series, m history.Method) {
	sb.WriteString("\n" + wrap("change points ("+MethodText(m)+"):", units.Columns, "  ", "    "))
	if len(s.Changes) == 0 {
		sb.WriteString(wrap("none "+NoChangeText(s, m), units.Columns, "    ", "      "))
		return
	}
	for _, c := range s.Changes {
		sb.WriteString(wrap(ChangeText(s, c), units.Columns, "    ", "      "))
	}
}

// NoChangeText says over which runs no change point was found: "in 6 runs",
// or "in 2 analysed runs of 6: the other 4 did not complete, or their
// generator disturbed them"; and that a level newer than m.MinRuns runs is
// not judged yet (a road of one run per fix has no change point).
func NoChangeText(s *history.Series, m history.Method) string {
	return noChangeRuns(s) + fmt.Sprintf("; a new level is found from its %s run on, so a step in the newest %s is not judged yet "+
		"(compare single runs with `loadlens compare`)", units.Ordinal(m.MinRuns), units.CountOf(int64(m.MinRuns-1), "run", "runs"))
}

// noChangeRuns says over which runs no change point was found.
func noChangeRuns(s *history.Series) string {
	analysed := 0
	for i := range s.Runs {
		if s.Runs[i].Analysed() {
			analysed++
		}
	}
	if analysed == len(s.Runs) {
		return "in " + units.CountOf(int64(len(s.Runs)), "run", "runs")
	}
	return fmt.Sprintf("in %s of %s: the other %s did not complete, or their generator disturbed them",
		units.CountOf(int64(analysed), "analysed run", "analysed runs"), units.Count(int64(len(s.Runs))),
		units.Count(int64(len(s.Runs)-analysed)))
}

// MethodText names the change-point method and its parameters.
func MethodText(m history.Method) string {
	return fmt.Sprintf("E-Divisive means with Student's t-test, α = %s shared over the splits and the endpoint × figure series, at least %s a side",
		units.Number(m.Alpha), units.CountOf(int64(m.MinRuns), "run", "runs"))
}

// ChangeText says a change point: which figure, how far with its interval,
// from which run, and the labels on both sides, e.g.
// "GET / p(95) +31.0% [+22.0%, +40.0%] (worse) from 20261120-101500-shop (2026-11-20 10:15) commit=a1b2; before: commit=9f8e".
func ChangeText(s *history.Series, c history.Change) string {
	r := &s.Runs[c.At]
	verdict := "better"
	if c.Worse {
		verdict = "worse"
	}
	text := fmt.Sprintf("%s %s %s (%s, %s → %s) from %s (%s)", c.Endpoint, c.Figure, stepText(c), verdict,
		levelText(c.Figure, c.Before), levelText(c.Figure, c.After), r.ID, r.Start.Local().Format(historyStarted))
	if tags := history.TagText(r.Tags); tags != "" {
		text += " " + tags
	}
	if c.At > 0 {
		if tags := history.TagText(s.Runs[c.At-1].Tags); tags != "" {
			text += "; before: " + tags
		}
	}
	return text
}

// stepText is a step with its interval: "+31.0% [+22.0%, +40.0%]", or in
// percentage points for errors.
func stepText(c history.Change) string {
	f := units.Change
	if !c.Figure.Relative() {
		f = units.Points
	}
	return f(c.Change) + " " + units.Interval(f(c.Lo), f(c.Hi))
}

func levelText(f history.Figure, v float64) string {
	switch {
	case f.Latency():
		return units.DurationMillis(v)
	case f == history.Throughput:
		return units.Rate(v, "")
	}
	return units.Percent(v)
}

func rateOrNone(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return units.Number(v)
}

// historyResult is a run's result in a word, as `loadlens runs` says it
// (history.Result), "(generator)" included.
func historyResult(r *history.Run) string { return r.Result() }

// disturbedNote says what "(generator)" means, when a run shown has it.
func disturbedNote(sb *strings.Builder, runs []history.Run) {
	for i := range runs {
		if runs[i].Disturbed != "" {
			sb.WriteString(wrap(history.DisturbedNote, units.Columns, "  ", "  "))
			return
		}
	}
}

// busiest is the endpoint of a series with the most requests in its newest run.
func busiest(s *history.Series) string {
	if s == nil || len(s.Runs) == 0 {
		return ""
	}
	best, n := "", int64(-1)
	for _, e := range s.Runs[len(s.Runs)-1].Endpoints {
		if e.Requests > n {
			best, n = e.Name, e.Requests
		}
	}
	return best
}

func newestChange(s *history.Series) (history.Change, bool) {
	var best history.Change
	ok := false
	for _, c := range s.Changes {
		if !ok || c.At > best.At {
			best, ok = c, true
		}
	}
	return best, ok
}

func lastN(xs []float64, n int) []float64 { return xs[max(0, len(xs)-n):] }

// sparkline draws values as block characters from their least to their
// greatest; a missing value is a space.
func sparkline(xs []float64) string {
	const bars = "▁▂▃▄▅▆▇█"
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if !math.IsNaN(x) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	runes := []rune(bars)
	var b strings.Builder
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			b.WriteRune(' ')
		case hi == lo:
			b.WriteRune(runes[3])
		default:
			b.WriteRune(runes[int((x-lo)/(hi-lo)*float64(len(runes)-1)+0.5)])
		}
	}
	return b.String()
}
