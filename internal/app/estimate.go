package app

import (
	"fmt"
	"io"
	"os"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/estimate"
)

// EstimateConfig is what `loadlens estimate` needs.
type EstimateConfig struct {
	Input   estimate.Input
	FromRun string // a run whose steady throughput is one instance's capacity
	RunInst int    // the instances that served that run
	Write   string // also write a starter test file here
	URL     string // the base URL and path the starter test calls
	Out     io.Writer
}

// Estimate turns business numbers into a load, printing every step, and
// optionally writes a starter test for it.
func Estimate(cfg EstimateConfig) error {
	in := cfg.Input
	if cfg.FromRun != "" {
		run, err := readRun(runDB(cfg.FromRun))
		if err != nil {
			return err
		}
		_, x := compare.Steady(run)
		n := max(cfg.RunInst, 1)
		in.PerInstance = x / float64(n)
		in.PerInstanceFrom = fmt.Sprintf("the steady throughput of %s (%.1f/s over %d instance(s))", cfg.FromRun, x, n)
	}
	res, err := estimate.Estimate(in)
	if err != nil {
		return err
	}
	if err := estimate.Render(cfg.Out, res); err != nil {
		return err
	}
	if cfg.Write == "" {
		return nil
	}
	base, path, err := splitBaseURL(cfg.URL)
	if err != nil {
		return err
	}
	f, err := os.Create(cfg.Write)
	if err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	defer f.Close()
	if err := estimate.WriteTest(f, res, base, path); err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	fmt.Fprintf(cfg.Out, "\nwrote %s: run it with `loadlens run %s`\n", cfg.Write, cfg.Write)
	return nil
}
