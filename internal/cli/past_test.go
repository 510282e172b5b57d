package cli

import (
	"path/filepath"
	"testing"
)

// TestRunsWithoutResults: a folder with no results yet has no runs: it
// says so and exits 0, as an empty results folder does.
func TestRunsWithoutResults(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, results, want string
	}{
		{"no results folder", filepath.Join(dir, "results"), "no runs in " + filepath.Join(dir, "results") + "\n"},
		{"an empty results folder", dir, "no runs in " + dir + "\n"},
	} {
		code, stdout, stderr := main("runs", "--results", tc.results)
		if code != 0 || stdout != tc.want || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and %q", tc.name, code, stdout, stderr, tc.want)
		}
	}
	if got := shownDir("results"); got != "./results" {
		t.Errorf("shownDir(results) = %q, want ./results", got)
	}
}
