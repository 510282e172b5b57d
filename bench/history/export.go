package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
)

// Recorded is a series of real runs record.sh made, oldest first; each
// run's "phase" tag says which level it was meant to be.
type Recorded struct {
	Runs []history.Run `json:"runs"`
}

// export writes the history records of a results folder as Recorded.
func export(results string) error {
	runs, skipped, err := app.SyncIndex(context.Background(), results)
	if err != nil {
		return err
	}
	if len(skipped) > 0 {
		return fmt.Errorf("runs not read: %v", skipped)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(Recorded{Runs: runs})
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
	history.SortOldestFirst(rec.Runs)
	return &rec, nil
}
