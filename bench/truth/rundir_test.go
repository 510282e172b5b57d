package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunDirSkipsTheIndex: results/ holds the run's directory and, since
// runs keep an index, history.db beside it; the compare pairs went
// unjudged when RunDir counted the file as a second run.
func TestRunDirSkipsTheIndex(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dirs  []string
		files []string
		want  string // the run directory's base name, or the error's text
	}{
		{"one run beside the index", []string{"20261129-1-run"}, []string{"history.db"}, "20261129-1-run"},
		{"one run alone", []string{"20261129-1-run"}, nil, "20261129-1-run"},
		{"two runs", []string{"a", "b"}, []string{"history.db"}, "2 run directories"},
		{"none", nil, []string{"history.db"}, "0 run directories"},
	} {
		dir := t.TempDir()
		for _, d := range tc.dirs {
			if err := os.MkdirAll(filepath.Join(dir, "results", d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range tc.files {
			if err := os.MkdirAll(filepath.Join(dir, "results"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "results", f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := RunDir(dir)
		switch {
		case err != nil && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		case err == nil && filepath.Base(got) != tc.want:
			t.Errorf("%s: RunDir = %s, want %s", tc.name, got, tc.want)
		}
	}
}
