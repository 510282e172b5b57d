package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/units"
)

// nightly is ten runs of one test, p95 100 ms then 150 ms from the sixth,
// each labelled with its commit; the last label is hostile markup.
func nightly() []*history.Test {
	var runs []history.Run
	for i := range 10 {
		p95 := 100.0 + float64(i%3)
		if i >= 5 {
			p95 = 150 + float64(i%2)
		}
		tag := fmt.Sprintf("c%02d", i)
		if i == 9 {
			tag = "</script><script>alert(1)</script>"
		}
		runs = append(runs, history.Run{ID: fmt.Sprintf("20261120-%02d0000-nightly", i), Host: "ci", Name: "nightly", Status: "completed",
			Start: time.Date(2026, 11, 20, i, 0, 0, 0, time.UTC), Tags: map[string]string{"commit": tag}, Shape: "s", ShapeID: "id",
			RPS: 50, Endpoints: []history.Endpoint{{Name: "GET /", Requests: 500, RPS: 50, P50: 40 * time.Millisecond,
				P95: time.Duration(p95 * float64(time.Millisecond)), P99: 200 * time.Millisecond}}})
	}
	return history.Group(runs, history.DefaultMethod)
}

func TestWriteHistoryNamesTheChange(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHistory(&b, nightly()[0], history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	flat := strings.Join(strings.Fields(out), " ") // the change points wrap at units.Columns
	for _, want := range []string{"nightly · 10 runs", "GET / p(95) +", "(worse, 101ms → 151ms) from 20261120-050000-nightly",
		"commit=c05; before: commit=c04", "◆", "at least 3 runs a side"} {
		if !strings.Contains(flat, want) {
			t.Errorf("history lacks %q:\n%s", want, out)
		}
	}
	fitsColumns(t, out)
}

// fitsColumns fails t for each line of out wider than units.Columns
// (fresh39: history's change-point lines were 147–186 columns).
func fitsColumns(t *testing.T, out string) {
	t.Helper()
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
}

// A run its generator disturbed is marked, its figures still shown, and
// the change points say what they left out.
func TestWriteHistoryMarksDisturbedRuns(t *testing.T) {
	test := nightly()[0]
	for i := range test.Series[0].Runs {
		test.Series[0].Runs[i].Disturbed = "generator-host-busy"
	}
	test.Series[0].Changes = nil // as Group finds them with every run left out
	var b bytes.Buffer
	if err := WriteHistory(&b, test, history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"passed (generator)", "(generator): the run's own diagnosis found the load generator", "151ms",
		"none in 0 analysed runs of 10: the other 10 did not complete, or their generator disturbed them"} {
		if !strings.Contains(flat, want) {
			t.Errorf("history lacks %q:\n%s", want, out)
		}
	}
	fitsColumns(t, out)
}

// history.html says over which runs no change point was found, and which
// runs the analysis left out (the s35 trial read "No change point." beside a
// 20× step in runs the generator disturbed).
func TestHistoryHTMLSaysWhichRunsWereLeftOut(t *testing.T) {
	for _, tc := range []struct {
		name     string
		disturb  int
		want     []string
		unwanted []string
	}{
		{name: "every run analysed", want: []string{"No change point in 10 runs; a new level is found from its 3rd run on, so a step in the newest 2 runs is not judged yet"}, unwanted: []string{"ringed grey point", `"leftOut":true`}},
		{name: "four left out", disturb: 4, want: []string{"No change point in 6 analysed runs of 10: the other 4 did not complete, or their generator disturbed them; a new level",
			"A ringed grey point is a run left out of the change-point analysis (4 of 10)", `"leftOut":true`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tests := nightly()
			s := tests[0].Series[0]
			s.Changes = nil
			for i := 0; i < tc.disturb; i++ {
				s.Runs[i].Disturbed = "generator-host-busy"
			}
			var b bytes.Buffer
			if err := WriteHistoryHTML(&b, tests, map[string]string{}, history.DefaultMethod); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("history.html lacks %q", w)
				}
			}
			for _, w := range tc.unwanted {
				if strings.Contains(out, w) {
					t.Errorf("history.html has %q", w)
				}
			}
		})
	}
}

func TestHistoryHTMLEscapesLabels(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHistoryHTML(&b, nightly(), map[string]string{}, history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "<script>alert") || strings.Contains(out, "</script><script>alert") {
		t.Error("a label's markup reached history.html unescaped")
	}
}

// TestHistoryShowsCapacity: a capacity search of a test is listed with its
// runs, its highest sustainable rate beside the other columns, in the
// listing, the test's page and history.html.
func TestHistoryShowsCapacity(t *testing.T) {
	runs := nightly()[0].Series[0].Runs
	search := history.Run{ID: "20261120-093000-capacity-nightly", Host: "ci", Name: "nightly", Status: "completed", Shape: "capacity search from 10 iterations/s",
		ShapeID: "cap", Start: time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC), Tags: map[string]string{"fix": "pool 10→50"},
		Capacity: &history.Capacity{Highest: 41.25, HighestRequests: 82.5, Steps: 7, Stop: "converged"}}
	none := search
	none.ID, none.Start, none.Capacity = "20261120-013000-capacity-nightly", search.Start.Add(-8*time.Hour), &history.Capacity{Steps: 1, Stop: "converged"}
	tests := history.Group(append(slices.Clone(runs), search, none), history.DefaultMethod)
	var list, one, page bytes.Buffer
	if err := WriteHistoryList(&list, tests); err != nil {
		t.Fatal(err)
	}
	if err := WriteHistory(&one, tests[0], history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	if err := WriteHistoryHTML(&page, tests, map[string]string{search.Key(): "x/capacity.html"}, history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
		want      []string
	}{
		{"list", list.String(), []string{"CAPACITY", "41.2 iter/s", "nightly    12  2026-11-20 09:00  passed"}},
		{"test", one.String(), []string{"capacity search from 10 iterations/s", "SEARCH", "41.2 iter/s  82.5 req/s", "converged", "fix=pool 10→50",
			"none", "GET / p(95) +"}},
		{"html", page.String(), []string{"Capacity: 41.2 iterations/s (82.5 req/s) in the newest search (20261120-093000-capacity-nightly",
			`<a href="x/capacity.html">20261120-093000-capacity-nightly</a>`, "none held the SLO", `<th class="num">capacity</th>`}},
	} {
		for _, want := range tc.want {
			if !strings.Contains(tc.out, want) {
				t.Errorf("%s lacks %q:\n%s", tc.name, want, tc.out)
			}
		}
	}
	if strings.Contains(page.String(), `"endpoints":null`) {
		t.Error("a series of searches gives the script endpoints null")
	}
}

// An endpoint with no figure in the runs shown is one line saying why, not
// a header over rows of dashes (the s34 trial read it as a table with no
// rows).
func TestWriteHistoryEndpointWithoutFigures(t *testing.T) {
	cases := []struct {
		name   string
		change func(r *history.Run)
		want   string
	}{
		{"no run completed", func(r *history.Run) { r.Status = "interrupted" }, "GET /: no figures, as no run shown completed"},
		{"no request of it", func(r *history.Run) { r.Endpoints[0].Requests = 0 }, "GET /: no figures, as no completed run shown sent it a request"},
		{"figures", func(*history.Run) {}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			test := nightly()[0]
			for i := range test.Series[0].Runs {
				tc.change(&test.Series[0].Runs[i])
			}
			var b bytes.Buffer
			if err := WriteHistory(&b, test, history.DefaultMethod); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			header := strings.Contains(out, "P50    P95")
			if tc.want == "" {
				if strings.Contains(out, "no figures") || !header {
					t.Errorf("an endpoint with figures lost its table:\n%s", out)
				}
				return
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("history lacks %q:\n%s", tc.want, out)
			}
			if header {
				t.Errorf("history prints the endpoint's table header without figures:\n%s", out)
			}
		})
	}
}

// TestHistoryStartsTellRunsApart: runs started within one minute read
// alike to the minute ("2026-11-20 09:00" twice, in the runs table and in
// each endpoint's), so a table whose rows share a minute shows seconds;
// others keep minutes.
func TestHistoryStartsTellRunsApart(t *testing.T) {
	at := func(h, m, s int) time.Time { return time.Date(2026, 11, 20, h, m, s, 0, time.UTC) }
	stamp := func(tm time.Time, layout string) string { return tm.Local().Format(layout) }
	cases := []struct {
		name  string
		last2 [2]time.Time // the starts of the two newest runs
		want  []string     // each at least twice: the runs table and the endpoint's
		never []string
		list  string // in `loadlens history`'s list of tests, whose newest runs are the last two's
	}{
		{"two runs in one minute show seconds", [2]time.Time{at(9, 0, 5), at(9, 0, 40)},
			[]string{stamp(at(9, 0, 5), "2006-01-02 15:04:05"), stamp(at(9, 0, 40), "2006-01-02 15:04:05"), stamp(at(0, 0, 0), "2006-01-02 15:04:05")},
			nil, stamp(at(9, 0, 40), "2006-01-02 15:04:05")},
		{"runs minutes apart keep minutes", [2]time.Time{at(8, 59, 5), at(9, 0, 40)},
			[]string{stamp(at(8, 59, 5), "2006-01-02 15:04"), stamp(at(9, 0, 40), "2006-01-02 15:04")},
			[]string{stamp(at(9, 0, 40), "2006-01-02 15:04:05"), stamp(at(0, 0, 0), "2006-01-02 15:04:05")}, stamp(at(9, 0, 40), "2006-01-02 15:04")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			test := nightly()[0]
			runs := test.Series[0].Runs
			runs[len(runs)-2].Start, runs[len(runs)-1].Start = tc.last2[0], tc.last2[1]
			test.Newest.Start = tc.last2[1]
			var b bytes.Buffer
			if err := WriteHistory(&b, test, history.DefaultMethod); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if strings.Count(out, w) < 2 {
					t.Errorf("history shows %q %d times, want it in the runs table and the endpoint's:\n%s", w, strings.Count(out, w), out)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(out, n) {
					t.Errorf("history shows %q:\n%s", n, out)
				}
			}
			fitsColumns(t, out)
			other := nightly()[0]
			other.Name, other.Newest.Start = "smoke", tc.last2[0]
			b.Reset()
			if err := WriteHistoryList(&b, []*history.Test{test, other}); err != nil {
				t.Fatal(err)
			}
			if list := b.String(); !strings.Contains(list, tc.list+" ") {
				t.Errorf("the list of tests lacks %q:\n%s", tc.list, list)
			}
		})
	}
}
