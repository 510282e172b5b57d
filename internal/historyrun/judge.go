package historyrun

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// verdict is one thing a --fail-on-change gate says of a test: a change
// for the worse, or why it could not judge.
type verdict struct {
	worse bool
	text  string
}

// judgeTest judges figure f of a test's newest runs: its change points for
// the worse in the newest within runs; else, for each endpoint of its
// newest run, whether that run counts for f, whether its newest runs (too
// few since the level began for a change point) lie past that level's
// spread, and whether there are runs enough for a change point at all.
func judgeTest(t *history.Test, f history.Figure, within int) []verdict {
	s := t.Current()
	if s == nil || t.Newest.Capacity != nil {
		return nil // only capacity searches: nothing of f to judge
	}
	var out []verdict
	for _, c := range s.Recent(f, within) {
		out = append(out, verdict{worse: true, text: report.ChangeText(s, c)})
	}
	if len(out) > 0 {
		return out
	}
	m, newest := history.DefaultMethod, &t.Newest
	for _, e := range newest.Endpoints {
		if e.Requests == 0 {
			continue
		}
		if why := newest.LeftOut(f, e); why != "" {
			out = append(out, verdict{text: fmt.Sprintf("%s's newest run, %s, is left out of %s of %s: %s", t.Name, newest.ID, f, e.Name, why)})
			continue
		}
		o := m.NewestOutrun(s.Values(e.Name, f), s.LevelStart(e.Name, f), f, len(newest.Endpoints))
		if v, ok := outrun(t, s, m, o, f, e, len(newest.Endpoints)); ok {
			out = append(out, v)
			continue
		}
		n := o.Analysed() // the same values NewestOutrun judged: a run whose value is dropped is not counted
		if m.JudgesChange(n) && o.Before >= 2 {
			continue // within the spread: the gate's last line says so
		}
		if m.JudgesChange(n) {
			out = append(out, verdict{text: fmt.Sprintf("%s's newest run, %s, has %s of its level before it of %s: too few to set it against, and no change point can start in it yet%s",
				t.Name, newest.ID, units.CountOf(int64(o.Before), "analysed run", "analysed runs"), e.Name, noValue(t, s, o, f, e))})
			continue
		}
		out = append(out, verdict{text: fmt.Sprintf("%s has %s of %s under this load shape, and a change point needs %d (%d a side): %s more would let the gate judge %s%s",
			t.Name, units.CountOf(int64(n), "analysed run", "analysed runs"), e.Name, 2*m.MinRuns, m.MinRuns,
			units.Count(int64(2*m.MinRuns-n)), f, noValue(t, s, o, f, e))})
	}
	return out
}

// outrun is the verdict on the newest runs of a level with values clearly
// past the spread of that level's runs before them; false when they are not.
func outrun(t *history.Test, s *history.Series, m history.Method, o history.Outrun, f history.Figure, e history.Endpoint, family int) (verdict, bool) {
	if !o.Past {
		return verdict{}, false
	}
	change := units.Change(o.Change)
	if !f.Relative() {
		change = fmt.Sprintf("%+.2f pp", 100*o.Change)
	}
	run, is, them := fmt.Sprintf("the newest run, %s,", t.Newest.ID), "is", "it"
	if judged := &s.Runs[o.At]; judged.Key() != t.Newest.Key() {
		run = fmt.Sprintf("the newest run with a %s of %s, %s,", f, e.Name, judged.ID)
	}
	if o.Runs > 1 {
		and := map[bool]string{true: "and", false: "to"}[o.Runs == 2]
		run, is, them = fmt.Sprintf("the newest %d runs with a %s of %s, %s %s %s,", o.Runs, f, e.Name, s.Runs[o.First].ID, and, s.Runs[o.At].ID), "are each", "them"
	}
	level := ""
	if from := s.LevelStart(e.Name, f); from > 0 {
		level = fmt.Sprintf(" since the change point at %s", s.Runs[from].ID)
	}
	return verdict{worse: true, text: fmt.Sprintf("%s %s past the spread of the %s%s before %s: %s of %s %s against them "+
		"(prediction t = %.1f > %.1f, one-sided α = %s); a change point needs %d runs after it to be confirmed%s",
		run, is, units.CountOf(int64(o.Before), "analysed run", "analysed runs"), level, them, f, e.Name, change, o.T, o.Q,
		units.Number(m.OutrunLevel(family)), m.MinRuns, noValue(t, s, o, f, e))}, true
}

// noValue says, when the newest run has no value of f that change points
// analyse (a relative figure of 0), that it was not counted: "" otherwise.
func noValue(t *history.Test, s *history.Series, o history.Outrun, f history.Figure, e history.Endpoint) string {
	if o.At >= 0 && s.Runs[o.At].Key() == t.Newest.Key() {
		return ""
	}
	v := units.Rate(f.Value(e), "req") // a relative figure is latency or requests/s
	if f.Latency() {
		v = units.DurationMillis(f.Value(e))
	}
	return fmt.Sprintf(" (the newest run, %s, has %s of %s %s, which counts for no change point)", t.Newest.ID, f, e.Name, v)
}
