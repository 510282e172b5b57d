package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/history"
)

// TestHistoryFileInTheIndex: a directory without run.db but with a history
// record (a capacity search's) is in history, as recorded and rebuilt from
// the file; a record that is broken, nameless or too big is skipped, named.
func TestHistoryFileInTheIndex(t *testing.T) {
	results := t.TempDir()
	search := filepath.Join(results, "20261129-120000-capacity-shop")
	if err := os.MkdirAll(search, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := history.Run{ID: filepath.Base(search), Host: "h", Path: search, Name: "shop", Start: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC),
		Status: "completed", Shape: "capacity search", ShapeID: "cap", Capacity: &history.Capacity{Highest: 41.25, HighestRequests: 82.5, Steps: 6, Stop: "converged"}}
	if ferr, serr := RecordHistory(context.Background(), search, rec, ""); ferr != nil || serr != nil {
		t.Fatal(ferr, serr)
	}
	for _, bad := range []struct{ name, body string }{
		{"broken", "{"}, {"nameless", `{"name": "shop"}`}, {"too-big", `{"id": "x", "tags": {"a": "` + strings.Repeat("x", maxHistoryFile) + `"}}`},
	} {
		dir := filepath.Join(results, bad.name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, HistoryFile), []byte(bad.body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, when := range []string{"as recorded", "rebuilt"} {
		if when == "rebuilt" {
			if err := os.Remove(filepath.Join(results, "history.db")); err != nil {
				t.Fatal(err)
			}
		}
		runs, skipped, err := SyncIndex(context.Background(), results)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || runs[0].Capacity == nil || *runs[0].Capacity != *rec.Capacity || runs[0].Dir != search {
			t.Errorf("%s: runs %+v, want the search with its capacity", when, runs)
		}
		if s := strings.Join(skipped, "\n"); len(skipped) != 3 || !strings.Contains(s, "broken: history.json:") ||
			!strings.Contains(s, "nameless: history.json: no run id") || !strings.Contains(s, "too-big: history.json: more than") {
			t.Errorf("%s: skipped %q", when, skipped)
		}
	}
}
