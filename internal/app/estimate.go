package app

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
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
	n := max(cfg.RunInst, 1)
	if highest, ok, err := capacityHighest(cfg.FromRun); err != nil {
		return err
	} else if ok {
		in.PerInstance = highest / float64(n)
		in.PerInstanceFrom = fmt.Sprintf("the capacity search in %s (%s over %s)", cfg.FromRun, units.Rate(highest, ""), units.CountOf(int64(n), "instance", "instances"))
	} else if cfg.FromRun != "" {
		run, err := readRun(runDB(cfg.FromRun))
		if err != nil {
			return err
		}
		_, x := compare.Steady(run)
		in.PerInstance = x / float64(n)
		in.PerInstanceFrom = fmt.Sprintf("the steady throughput of %s (%s over %s)", cfg.FromRun, units.Rate(x, ""), units.CountOf(int64(n), "instance", "instances"))
	}
	res, err := estimate.Estimate(in)
	if err != nil {
		return err
	}
	if err := report.WriteEstimateText(cfg.Out, res); err != nil {
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
	if err := report.WriteEstimateTest(f, res, base, path); err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	fmt.Fprintf(cfg.Out, "\nwrote %s: run it with `loadlens run %s`\n", cfg.Write, cfg.Write)
	return nil
}

// capacityHighest reads the highest sustainable rate of a capacity
// search's directory; ok is false when dir is not one.
func capacityHighest(dir string) (highest float64, ok bool, err error) {
	if dir == "" {
		return 0, false, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "capacity.json"))
	if os.IsNotExist(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	var res struct{ Highest float64 }
	if err := json.Unmarshal(b, &res); err != nil {
		return 0, false, fmt.Errorf("%s: %w", filepath.Join(dir, "capacity.json"), err)
	}
	if res.Highest <= 0 {
		return 0, false, fmt.Errorf("the capacity search in %s found no sustainable rate to plan with", dir)
	}
	return res.Highest, true, nil
}
