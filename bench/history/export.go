package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
)

// Recorded is a series of real runs record.sh or record-steps.sh made,
// oldest first; each run's "phase" tag says which level it was meant to
// be.
type Recorded struct {
	Title  string        `json:"title,omitempty"`  // what the runs ran against
	Script string        `json:"script,omitempty"` // the script that recorded them
	Commit string        `json:"commit,omitempty"` // loadlens's commit that ran them
	Runs   []history.Run `json:"runs"`
	// Server is the step server's own timing of each run, by path, in the
	// order of Runs (record-steps.sh only).
	Server []map[string]Timing `json:"server,omitempty"`
}

// export writes the history records of a results folder as Recorded, with
// the step server's timing of each run from serverDir (1.json, 2.json…)
// when given.
func export(results, serverDir, title, script, commit string) error {
	runs, skipped, err := app.SyncIndex(context.Background(), results)
	if err != nil {
		return err
	}
	if len(skipped) > 0 {
		return fmt.Errorf("runs not read: %v", skipped)
	}
	history.SortOldestFirst(runs)
	rec := Recorded{Title: title, Script: script, Commit: commit, Runs: runs}
	if serverDir != "" {
		for i := range runs {
			path := filepath.Join(serverDir, strconv.Itoa(i+1)+".json")
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var t map[string]Timing
			if err := json.Unmarshal(b, &t); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			rec.Server = append(rec.Server, t)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(rec)
}

func readRecorded(path string) (*Recorded, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec Recorded
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rec.Runs) == 0 {
		return nil, fmt.Errorf("%s holds no runs", path)
	}
	if rec.Server != nil && len(rec.Server) != len(rec.Runs) {
		return nil, fmt.Errorf("%s: %d runs but the server's timing of %d", path, len(rec.Runs), len(rec.Server))
	}
	if rec.Title == "" { // recorded before the field
		rec.Title, rec.Script = "the demo shop", "bench/history/record.sh"
	}
	history.SortOldestFirst(rec.Runs)
	return &rec, nil
}
