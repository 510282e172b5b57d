package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/threshold"
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
	note := ""
	if highest, ok, err := capacityHighest(cfg.FromRun); err != nil {
		return err
	} else if ok {
		in.PerInstance = highest / float64(n)
		in.PerInstanceFrom = fmt.Sprintf("the capacity search in %s (%s over %s)", cfg.FromRun, units.Rate(highest, ""), units.CountOf(int64(n), "instance", "instances"))
	} else if cfg.FromRun != "" {
		per, from, sustainedNote, err := sustainedPerInstance(cfg, n)
		if err != nil {
			return err
		}
		in.PerInstance, in.PerInstanceFrom = per, from
		note = sustainedNote
	}
	res, err := estimate.Estimate(in)
	if err != nil {
		return err
	}
	if note != "" {
		res.Notes = append(res.Notes, note)
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

// ErrNoSustainableRate is returned when no second of a --from-run run met
// its SLO: there is no per-instance capacity to divide by.
var ErrNoSustainableRate = errors.New("no sustainable rate")

// sustainedPerInstance takes one instance's capacity from a run: the
// successful requests per second of its steady part's seconds that met the
// SLO (the --latency-goal and --max-errors given, else the run's
// thresholds, else the starter test's defaults), over n instances; note
// warns when fewer than half its seconds met the SLO.
func sustainedPerInstance(cfg EstimateConfig, n int) (per float64, from, note string, err error) {
	db := runDB(cfg.FromRun)
	rd, err := openRun(db)
	if err != nil {
		return 0, "", "", err
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		return 0, "", "", err
	}
	defs, err := decodeThresholds(rd.Meta().Extra["thresholds"])
	if err != nil {
		return 0, "", "", fmt.Errorf("%s: %w", db, err)
	}
	slo := estimateSLO(cfg.Input, defs)
	part, _ := compare.Steady(run)
	var steady []metrics.Second
	for _, s := range run.Series {
		if s.Sec >= part.First && s.Sec <= part.Last {
			steady = append(steady, s)
		}
	}
	got := estimate.SustainedRate(steady, slo)
	if got.Met == 0 {
		why := fmt.Sprintf("none of the %s of the steady part of %s met %s (%s), so the run shows no rate "+
			"one instance sustains: find one with `loadlens capacity`",
			units.CountOf(int64(got.Seconds), "second", "seconds"), cfg.FromRun, slo.Source, got.Why())
		// fail prints "loadlens: " before the first line.
		wrapped := units.Wrap(ErrNoSustainableRate.Error()+": "+why, units.Columns, "          ", "  ")
		return 0, "", "", fmt.Errorf("%w%s", ErrNoSustainableRate,
			strings.TrimSuffix(strings.TrimPrefix(wrapped, "          "+ErrNoSustainableRate.Error()), "\n"))
	}
	if got.Met*2 < got.Seconds {
		note = fmt.Sprintf("only %s of the %s of %s's steady part met its SLO: the per-instance rate is what "+
			"the target kept in its good seconds, not a rate it held; confirm it with `loadlens capacity`",
			units.Count(int64(got.Met)), units.CountOf(int64(got.Seconds), "second", "seconds"), cfg.FromRun)
	}
	from = fmt.Sprintf("the successful requests of %s: %s over the %s of its steady part's %s that met %s, "+
		"over %s", cfg.FromRun, units.Rate(got.Rate, ""), units.Count(int64(got.Met)),
		units.CountOf(int64(got.Seconds), "second", "seconds"), slo.Source, units.CountOf(int64(n), "instance", "instances"))
	return got.Rate / float64(n), from, note, nil
}

// estimateSLO is the SLO a --from-run run's seconds are judged on.
func estimateSLO(in estimate.Input, defs []threshold.Threshold) estimate.SLO {
	if in.LatencyGoal > 0 || in.MaxErrors > 0 {
		return estimate.DefaultSLO(in.LatencyGoal, in.MaxErrors, "given")
	}
	if slo, ok := estimate.SLOFromThresholds(defs); ok {
		return slo
	}
	return estimate.DefaultSLO(0, 0, "the starter test's, as the run has no threshold to judge a second on")
}
