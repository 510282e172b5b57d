package runs

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/output"
)

// ExportConfig is what `loadlens export` needs.
type ExportConfig struct {
	Run    string    // a run directory or its run.db
	Format string    // jsonl or csv
	Out    string    // a file to write; "" writes to W
	W      io.Writer // where to write without Out
}

// Export writes a past run's per-second data, also a run killed mid-way's.
func Export(cfg ExportConfig) error {
	if !slices.Contains(output.ExportFormats(), cfg.Format) {
		return app.BadInput(fmt.Errorf("--format %q: want jsonl or csv", cfg.Format))
	}
	rd, err := app.OpenRun(app.RunDB(cfg.Run))
	if err != nil {
		return err
	}
	defer rd.Close()
	meta := rd.Meta()
	end := meta.Start.Add(1 << 62) // a run that did not finish: every second it kept is over
	if fin, ok := rd.Finish(); ok {
		end = fin.End
	}
	w := cfg.W
	var f *os.File
	if cfg.Out != "" {
		if f, err = os.Create(cfg.Out); err != nil {
			return err
		}
		w = f
	}
	err = output.Export(w, cfg.Format, meta.Layout, meta.Start, end, func(fn func(*metrics.Snapshot) error) error { return rd.Snapshots(fn) })
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && cfg.Out != "" {
		return fmt.Errorf("%s could not be written: %w", cfg.Out, err)
	}
	return err
}
