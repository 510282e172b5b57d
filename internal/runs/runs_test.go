package runs

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
)

func TestWriteRunsAlignsColumns(t *testing.T) {
	start := time.Date(2026, 11, 24, 5, 0, 0, 0, time.Local)
	long := strings.Repeat("very-long-test-name-", 4)
	tests := []struct {
		name string
		runs []RunInfo
		cut  string // a value that must appear cut with "…"
	}{
		{"short names", []RunInfo{
			{Dir: "results/20261124-050000-a", Name: "a", Start: start, ExitCode: app.ExitOK},
			{Dir: "results/20261124-050001-shop", Name: "shop", Start: start, ExitCode: history.NoExitCode, Status: app.StatusIncomplete},
		}, ""},
		{"a long name", []RunInfo{
			{Dir: "results/20261124-050000-" + long, Name: long, Start: start, ExitCode: app.ExitOK, Requests: 1234},
			{Dir: "results/20261124-050001-b", Name: "b", Start: start, ExitCode: app.ExitOK},
		}, long},
		{"a non-ASCII name", []RunInfo{
			{Dir: "results/20261124-050000-café", Name: "café-über", Start: start, ExitCode: app.ExitOK},
			{Dir: "results/20261124-050001-b", Name: "b", Start: start, ExitCode: app.ExitOK},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sb strings.Builder
			if err := WriteRuns(&sb, tt.runs); err != nil {
				t.Fatal(err)
			}
			table, _, _ := strings.Cut(sb.String(), "\nincomplete: ") // the table, without the note under it
			lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
			// One line a run, or, when a directory is too long for that, two:
			// the directory whole, then the figures.
			figures := lines
			if lines[0] == "RUN" {
				figures = nil
				for i := 1; i < len(lines); i += 2 {
					figures = append(figures, lines[i])
				}
				for i, r := range tt.runs {
					if got, want := lines[2+2*i], strings.TrimPrefix(r.Dir, "results/"); got != want {
						t.Errorf("run %d reads %q, want its whole directory %q", i, got, want)
					}
				}
			}
			if len(figures) != len(tt.runs)+1 || len(lines) != len(figures) && len(lines) != 2*len(figures) {
				t.Fatalf("%d lines for %d runs:\n%s", len(lines), len(tt.runs), sb.String())
			}
			// Every column starts at the same rune offset on every line.
			col := func(line, header string) int { return utf8.RuneCountInString(line[:strings.Index(line, header)]) }
			started := col(figures[0], "STARTED")
			for _, l := range figures[1:] {
				if got := col(l, "2026-11-24"); got != started {
					t.Errorf("STARTED at column %d, want %d:\n%s", got, started, sb.String())
				}
			}
			for _, l := range lines {
				if w := utf8.RuneCountInString(l); w > 100 {
					t.Errorf("line is %d columns, more than a 100-column terminal:\n%s", w, l)
				}
			}
			names := strings.Join(figures, "\n")
			if tt.cut != "" && (strings.Contains(names, tt.cut) || !strings.Contains(names, "…")) {
				t.Errorf("the long value is not cut with …:\n%s", sb.String())
			}
		})
	}
}

// TestWriteRunsKeepsRunsApart: five runs against the same long URL stay
// told apart, their directories shown under the results folder with both
// ends kept, and RESULT says "passed" only of a run whose thresholds were
// judged.
func TestWriteRunsKeepsRunsApart(t *testing.T) {
	start := time.Date(2026, 11, 24, 5, 28, 17, 0, time.Local)
	base := "20261124-052817-127.0.0.1-40000-api-v1-catalogue-products"
	var runs []RunInfo
	for i := range 5 {
		dir := base
		if i > 0 {
			dir += "-" + string(rune('0'+i))
		}
		runs = append(runs, RunInfo{Dir: "results/" + dir, Name: "127.0.0.1-40000", Start: start, Status: app.StatusCompleted, ExitCode: app.ExitOK, Requests: 10})
	}
	runs[1].Judged = 2
	runs[2].Judged, runs[2].ExitCode = 1, app.ExitThresholdFailed
	runs[3].Status, runs[3].ExitCode = app.StatusFailed, app.ExitRunFailed
	runs[4].AllFailed = true
	var sb strings.Builder
	if err := WriteRuns(&sb, runs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if len(lines) != 2*(len(runs)+1) {
		t.Fatalf("%d lines for %d runs: want two a run (the directory alone on the first):\n%s", len(lines), len(runs), sb.String())
	}
	seen := map[string]bool{}
	wantResult := []string{"no thresholds", "passed", "failed", "run failed", "all failed"}
	for i := range runs {
		dir, rest := lines[2+2*i], lines[3+2*i]
		for _, l := range []string{dir, rest} {
			if w := utf8.RuneCountInString(l); w > 100 {
				t.Errorf("line is %d columns:\n%s", w, l)
			}
		}
		if want := strings.TrimPrefix(runs[i].Dir, "results/"); dir != want {
			t.Errorf("run %d reads %q, want its whole directory %q (what summary and compare take)", i, dir, want)
		}
		if seen[dir] {
			t.Errorf("two runs read %q:\n%s", dir, sb.String())
		}
		seen[dir] = true
		if !strings.HasPrefix(rest, runIndent) || !strings.Contains(rest, "2026-11-24 05:28:17") {
			t.Errorf("run %d's figures: %q; want them indented, started to the second", i, rest)
		}
		if !strings.HasSuffix(rest, "  "+wantResult[i]) {
			t.Errorf("run %d: want RESULT %q: %s", i, wantResult[i], rest)
		}
	}
	// A long name is cut after maxNameWidth runes: the directory is the handle.
	runs[0].Dir = "results/20261124-082718-127.0.0.1-40919-api-v1-organisations-12345-projects-a38b00c6"
	runs[0].Name = "127.0.0.1-40919-api-v1-organisations-12345-projects"
	sb.Reset()
	if err := WriteRuns(&sb, runs[:1]); err != nil {
		t.Fatal(err)
	}
	out := strings.Split(sb.String(), "\n")
	if out[2] != "20261124-082718-127.0.0.1-40919-api-v1-organisations-12345-projects-a38b00c6" || !strings.Contains(out[3], "127.0.0.1-40919…") {
		t.Errorf("a long run: %q; want its whole directory, then its name's first 15 runes", sb.String())
	}
}

// TestWriteRunsSaysAKilledRunDidNotFinish: a run killed -9 recorded no end
// and no exit code; the list says what its "incomplete" means instead of a
// code it never exited with, and says nothing of the kind for runs that
// ended, however they ended.
func TestWriteRunsSaysAKilledRunDidNotFinish(t *testing.T) {
	start := time.Date(2026, 11, 24, 5, 0, 0, 0, time.Local)
	for _, tc := range []struct {
		name string
		run  RunInfo
		note bool
	}{
		{"killed", RunInfo{Dir: "results/k", Name: "k", Start: start, ExitCode: history.NoExitCode, Status: app.StatusIncomplete}, true},
		{"interrupted", RunInfo{Dir: "results/i", Name: "i", Start: start, ExitCode: app.ExitRunFailed, Status: app.StatusInterrupted}, false},
		{"completed", RunInfo{Dir: "results/c", Name: "c", Start: start, ExitCode: app.ExitOK, Status: app.StatusCompleted}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sb strings.Builder
			if err := WriteRuns(&sb, []RunInfo{tc.run}); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(sb.String()), " ")
			if got := strings.Contains(flat, "incomplete: run.db recorded no end and so no exit code;"); got != tc.note {
				t.Errorf("note %v, want %v:\n%s", got, tc.note, sb.String())
			}
			if strings.Contains(flat, "exit code 1") || strings.Contains(flat, "exit code: ") {
				t.Errorf("the list names an exit code:\n%s", sb.String())
			}
		})
	}
}
