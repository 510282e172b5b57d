package historyrun

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/units"
)

// --fail-on-change does not pass a test whose newest run counts for no
// change point (its generator disturbed it, or it did not complete): it
// says so and exits 3, as compare does for a gate it cannot judge.
func TestGateDoesNotPassANewestRunLeftOut(t *testing.T) {
	for _, tc := range []struct {
		name      string
		disturbed string
		status    string
		code      int
		says      string
	}{
		{"a quiet newest run", "", "completed", app.ExitOK, "no change of p(95) for the worse"},
		{"a disturbed newest run", "generator-host-busy", "completed", app.ExitNotJudged, "its own diagnosis found generator-host-busy"},
		{"an interrupted newest run", "", "interrupted", app.ExitNotJudged, "it did not complete (interrupted)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []history.Run
			for i := range 8 {
				r := history.Run{ID: fmt.Sprintf("r%02d", i), Host: "h", Name: "shop", Status: "completed", Shape: "10/s", ShapeID: "s",
					Start:     time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC),
					Endpoints: []history.Endpoint{{Name: "GET /", Requests: 100, P50: 5 * time.Millisecond, P95: time.Duration(10+i%2) * time.Millisecond, P99: 12 * time.Millisecond}}}
				if i == 7 {
					r.Disturbed, r.Status = tc.disturbed, tc.status
				}
				runs = append(runs, r)
			}
			var out strings.Builder
			f := history.P95
			code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, Out: &out}, history.Group(runs, history.DefaultMethod))
			if code != tc.code || !strings.Contains(strings.Join(strings.Fields(out.String()), " "), tc.says) {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.says, out.String())
			}
		})
	}
}

// runsOf makes a test's runs of one endpoint, oldest first, with these p50s
// in milliseconds (p95 twice, p99 thrice).
func runsOf(p50s ...float64) []history.Run {
	var runs []history.Run
	for i, ms := range p50s {
		d := time.Duration(ms * float64(time.Millisecond))
		runs = append(runs, history.Run{ID: fmt.Sprintf("r%02d", i), Host: "h", Name: "shop", Status: "completed", Shape: "10/s", ShapeID: "s",
			Start:     time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC),
			Endpoints: []history.Endpoint{{Name: "GET /h", Requests: 500, P50: d, P95: 2 * d, P99: 3 * d}}})
	}
	return runs
}

// TestGateOnFewRunsIsNotJudged is trial C's: on 2–5 analysed runs no change
// point can be found, and the gate passed a newest run +23 % slower ("no
// change of p(50) for the worse"). It now exits 3 saying how many runs it
// needs, unless the newest run lies clearly past its predecessors' spread
// (then 99), and passes with a note when not judged runs are allowed.
func TestGateOnFewRunsIsNotJudged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		runs  []history.Run
		allow bool
		code  int
		says  string
	}{
		{"one run", runsOf(22), false, app.ExitNotJudged, "1 analysed run of GET /h under this load shape, and a change point needs 6 (3 a side): 5 more"},
		{"three flat runs", runsOf(22.0, 21.6, 22.4), false, app.ExitNotJudged, "3 more would let the gate judge p(50)"},
		{"three flat runs, allowed", runsOf(22.0, 21.6, 22.4), true, app.ExitOK, "? not judged: passes as --allow-not-judged asks"},
		{"newest +25% past four quiet runs", runsOf(22.0, 21.6, 22.4, 22.5, 27.6), false, app.ExitThresholdFailed,
			"the newest run, r04, is past the spread of the 4 analysed runs before it: p(50) of GET /h +24.8% against them (prediction t = 10.6 > 5.8, one-sided α = 0.005)"},
		{"newest faster: no worse", runsOf(22.0, 21.6, 22.4, 22.5, 17.6), false, app.ExitNotJudged, "1 more would let the gate judge"},
		{"six flat runs judge", runsOf(22.0, 21.6, 22.4, 22.5, 22.0, 21.9), false, app.ExitOK,
			"no change of p(50) for the worse: no change point starts in the newest 5 runs, and the newest runs lie within the spread"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			f := history.P50
			code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, AllowNotJudged: tc.allow, Out: &out}, history.Group(tc.runs, history.DefaultMethod))
			if code != tc.code || !strings.Contains(strings.Join(strings.Fields(out.String()), " "), tc.says) {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.says, out.String())
			}
		})
	}
}

// TestGateFailsNewestRunsPastTheirLevel is trial B's: with 6 or more
// analysed runs only change points judged, and a change point needs 3 runs
// after it, so six runs at 7–8 ms then one at 22.5 ms passed ("no change of
// p(50) for the worse starts in the newest 5 runs", exit 0), as did a 2.7×
// pair after 5 stable runs. The newest runs of a level, too few for a change
// point, past the spread of the level's runs before them now fail (99).
func TestGateFailsNewestRunsPastTheirLevel(t *testing.T) {
	trial := []float64{6.98, 7.73, 6.99, 8.01, 7.41, 7.58}
	for _, tc := range []struct {
		name string
		runs []history.Run
		code int
		says string
	}{
		{"trial B: six runs then 3×", runsOf(append(trial, 22.5)...), app.ExitThresholdFailed,
			"the newest run, r06, is past the spread of the 6 analysed runs before it: p(50) of GET /h +202% against them"},
		{"a 2.7× pair after 5 stable runs", runsOf(6.0, 6.4, 6.2, 6.3, 6.2, 16.8, 16.9), app.ExitThresholdFailed,
			"the newest 2 runs with a p(50) of GET /h, r05 and r06, are each past the spread of the 5 analysed runs before them"},
		{"a 2.7× run, then one back", runsOf(6.0, 6.4, 6.2, 6.3, 6.2, 16.8, 6.1), app.ExitOK, "no change of p(50) for the worse"},
		{"a level since a change point", runsOf(5.6, 5.5, 5.7, 5.6, 25.8, 25.9, 26.0, 25.7, 26.1, 25.8, 25.9, 26.0, 31.0), app.ExitThresholdFailed,
			"the newest run, r12, is past the spread of the 8 analysed runs since the change point at r04 before it"},
		{"six runs then one within their spread", runsOf(append(trial, 7.9)...), app.ExitOK, "no change of p(50) for the worse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			f := history.P50
			code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, Out: &out}, history.Group(tc.runs, history.DefaultMethod))
			if code != tc.code || !strings.Contains(strings.Join(strings.Fields(out.String()), " "), tc.says) {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.says, out.String())
			}
		})
	}
}

// TestGateJudgesTheNewestRunWithAValue: a newest run whose p(50) is 0
// counts for no change point. The gate set the run before it against its
// predecessors as "the newest run, r04" and counted the 0 among the
// analysed runs; it now names the run it judged, says the newest has none,
// and counts only runs with a value.
func TestGateJudgesTheNewestRunWithAValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs []history.Run
		code int
		says []string
	}{
		{"newest 0 after a slow run", runsOf(22.0, 21.6, 22.4, 27.6, 0), app.ExitThresholdFailed, []string{
			"the newest run with a p(50) of GET /h, r03, is past the spread of the 3 analysed runs before it: p(50) of GET /h +25.5% against them",
			"(the newest run, r04, has p(50) of GET /h 0s, which counts for no change point)"}},
		{"newest 0 after quiet runs", runsOf(22.0, 21.6, 22.4, 0), app.ExitNotJudged, []string{
			"shop has 3 analysed runs of GET /h under this load shape", "3 more would let the gate judge p(50)",
			"(the newest run, r03, has p(50) of GET /h 0s"}},
		{"a 0 between is not counted", runsOf(22.0, 0, 21.6, 22.4, 22.1, 21.9), app.ExitNotJudged, []string{
			"shop has 5 analysed runs of GET /h", "1 more would let the gate judge p(50)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			f := history.P50
			code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, Out: &out}, history.Group(tc.runs, history.DefaultMethod))
			text := strings.Join(strings.Fields(out.String()), " ")
			for _, want := range tc.says {
				if code != tc.code || !strings.Contains(text, want) {
					t.Errorf("exit %d, want %d saying %q:\n%s", code, tc.code, want, out.String())
				}
			}
		})
	}
}

// TestGateOnAnUnknownTestIsABadArgument: the history gate's like of
// compare's unknown endpoint, a test no run has, is a usage error (exit 2)
// naming the tests there are, not a change for the worse.
func TestGateOnAnUnknownTestIsABadArgument(t *testing.T) {
	f := history.P95
	for _, tc := range []struct {
		name    string
		results string
		says    string
	}{
		{"no runs at all", t.TempDir(), `no runs of test "shopp" in`},
		{"a results folder that is not there", t.TempDir() + "/none", "there are no runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			code, err := History(t.Context(), HistoryConfig{Results: tc.results, Test: "shopp", FailOn: &f, Within: 5, Out: &out})
			if code != app.ExitBadInput || err == nil || !errors.Is(err, app.ErrUsage) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("exit %d, err %v; want exit %d saying %q", code, err, app.ExitBadInput, tc.says)
			}
		})
	}
	_, err := findTest(history.Group(runsOf(22, 21), history.DefaultMethod), "shopp", HistoryConfig{Results: "results"})
	if !errors.Is(err, app.ErrUsage) || !strings.Contains(err.Error(), `no runs of test "shopp" in results; its tests are: shop`) {
		t.Fatalf("err %v; want a usage error naming the tests there are", err)
	}
}

// TestGateChangeFitsTerminal: a change for the worse is said within
// units.Columns (fresh39: 186 columns with its commit labels).
func TestGateChangeFitsTerminal(t *testing.T) {
	runs := runsOf(5.6, 5.5, 5.7, 5.6, 25.8, 25.9, 26.0, 25.7)
	for i := range runs {
		runs[i].Name = "hist-test"
		runs[i].Tags = map[string]string{"commit": fmt.Sprintf("c%d-%05d", 5+20*(i/4), 20330+i)}
	}
	var out strings.Builder
	f := history.P50
	if code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, Out: &out}, history.Group(runs, history.DefaultMethod)); code != app.ExitThresholdFailed {
		t.Fatalf("exit %d, want %d:\n%s", code, app.ExitThresholdFailed, out.String())
	}
	text := out.String()
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "change for the worse in hist-test: GET /h p(50) +") {
		t.Errorf("no change for the worse said:\n%s", text)
	}
	for i, line := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
}
