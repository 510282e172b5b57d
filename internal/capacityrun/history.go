package capacityrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/units"
)

// recordSearch keeps the search in the results folder's history, so that
// `loadlens history` lists its highest sustainable rate beside the test's
// runs, and in the shared store when asked. Not being in the index is
// said, not the search's failure; a store asked for and not written is.
func recordSearch(ctx context.Context, cfg CapacityConfig, dir string, start time.Time, res capacity.Result, code int) error {
	fileErr, storeErr := app.RecordHistory(ctx, dir, searchRecord(cfg, dir, start, res, code, ctx.Err() != nil), cfg.Store)
	if fileErr != nil {
		fmt.Fprintf(cfg.Out, "note: the search is not in the history (%v)\n", fileErr)
	}
	return storeErr
}

// searchRecord is what history keeps of a search: the test's name, so that
// it is listed with the test, and a load shape of its own (the search's
// settings), so that its figures are never compared with a run's.
func searchRecord(cfg CapacityConfig, dir string, start time.Time, res capacity.Result, code int, interrupted bool) history.Run {
	host, _ := os.Hostname()
	path, err := filepath.Abs(dir)
	if err != nil {
		path = dir
	}
	c := res.Config
	raise := "×" + units.Number(c.Factor)
	if c.Increment > 0 {
		raise = "+" + capacity.Iterations(c.Increment)
	}
	shape := fmt.Sprintf("capacity search from %s, %s a step, holds of %s", capacity.Iterations(c.StartRate), raise, units.Duration(c.Hold))
	if c.MaxRate > 0 {
		shape += ", up to " + capacity.Iterations(c.MaxRate)
	}
	status := "completed"
	switch {
	case res.Stop == capacity.Interrupted || interrupted:
		status = "interrupted"
	case code == app.ExitRunFailed:
		status = "failed"
	}
	rec := history.Run{ID: filepath.Base(dir), Host: host, Path: path, Name: cfg.Plan.Name, Start: start.UTC(), Status: status, ExitCode: code,
		Shape: shape, ShapeID: history.ShapeID(shape), Elapsed: time.Since(start),
		Capacity: &history.Capacity{Highest: res.Highest, HighestRequests: res.HighestRequests, Steps: len(res.Steps), Stop: string(res.Stop)}}
	for _, st := range res.Steps {
		rec.Requests += st.Requests
	}
	return rec
}
