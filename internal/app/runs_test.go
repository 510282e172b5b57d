package app

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
			{Dir: "results/20261124-050000-a", Name: "a", Start: start, ExitCode: ExitOK},
			{Dir: "results/20261124-050001-shop", Name: "shop", Start: start, ExitCode: -1, Status: StatusIncomplete},
		}, ""},
		{"a long name", []RunInfo{
			{Dir: "results/20261124-050000-" + long, Name: long, Start: start, ExitCode: ExitOK, Requests: 1234},
			{Dir: "results/20261124-050001-b", Name: "b", Start: start, ExitCode: ExitOK},
		}, long},
		{"a non-ASCII name", []RunInfo{
			{Dir: "results/20261124-050000-café", Name: "café-über", Start: start, ExitCode: ExitOK},
			{Dir: "results/20261124-050001-b", Name: "b", Start: start, ExitCode: ExitOK},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sb strings.Builder
			if err := WriteRuns(&sb, tt.runs); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
			if len(lines) != len(tt.runs)+1 {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tt.runs)+1, sb.String())
			}
			// Every column starts at the same rune offset on every line.
			col := func(line, header string) int { return utf8.RuneCountInString(line[:strings.Index(line, header)]) }
			started := col(lines[0], "STARTED")
			for _, l := range lines[1:] {
				if got := col(l, "2026-11-24"); got != started {
					t.Errorf("STARTED at column %d, want %d:\n%s", got, started, sb.String())
				}
				if w := utf8.RuneCountInString(l); w > 100 {
					t.Errorf("line is %d columns, more than a 100-column terminal:\n%s", w, l)
				}
			}
			if tt.cut != "" && (strings.Contains(sb.String(), tt.cut) || !strings.Contains(sb.String(), "…")) {
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
		runs = append(runs, RunInfo{Dir: "results/" + dir, Name: "127.0.0.1-40000", Start: start, Status: StatusCompleted, ExitCode: ExitOK, Requests: 10})
	}
	runs[1].Judged = 2
	runs[2].Judged, runs[2].ExitCode = 1, ExitThresholdFailed
	runs[3].Status, runs[3].ExitCode = StatusFailed, ExitRunFailed
	var sb strings.Builder
	if err := WriteRuns(&sb, runs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	seen := map[string]bool{}
	wantResult := []string{"no thresholds", "passed", "failed", "run failed", "no thresholds"}
	for i, l := range lines[1:] {
		if w := utf8.RuneCountInString(l); w > 100 {
			t.Errorf("line is %d columns:\n%s", w, l)
		}
		if strings.Contains(l, "results/") {
			t.Errorf("the run is not shown under the results folder: %s", l)
		}
		f := strings.Fields(l)
		if seen[f[0]] {
			t.Errorf("two runs read %q:\n%s", f[0], sb.String())
		}
		seen[f[0]] = true
		if !strings.HasPrefix(f[0], "20261124-052817-") || !strings.Contains(f[0], "…") {
			t.Errorf("run %d reads %q: want its time stamp, then … for the middle", i, f[0])
		}
		if !strings.HasSuffix(l, "  "+wantResult[i]) {
			t.Errorf("run %d: want RESULT %q: %s", i, wantResult[i], l)
		}
	}
	if !strings.HasSuffix(strings.Fields(lines[2])[0], "products-1") {
		t.Errorf("the end of the directory is lost: %s", lines[2])
	}
	// A directory too long for the table leaves NAME its width, not "127…".
	runs[0].Dir = "results/20261124-082718-127.0.0.1-40919-api-v1-organisations-12345-projects-a38b00c6"
	runs[0].Name = "127.0.0.1-40919-api-v1-organisations-12345-projects"
	sb.Reset()
	if err := WriteRuns(&sb, runs[:1]); err != nil {
		t.Fatal(err)
	}
	row := strings.Split(sb.String(), "\n")[1]
	if !strings.Contains(row, "127.0.0.1-40919…") || !strings.HasPrefix(row, "20261124-082718-") || utf8.RuneCountInString(row) > 100 {
		t.Errorf("a long run's row: %q; want its time stamp, and its name's first 15 runes in NAME", row)
	}
}
