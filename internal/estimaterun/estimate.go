package estimaterun

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
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
	var notes []string
	if c, ok, err := capacityPerInstance(cfg.FromRun); err != nil {
		return err
	} else if ok {
		in.PerInstance, in.PerInstanceAtLeast = c.requests/float64(n), c.atLeast
		in.PerInstanceFrom = fmt.Sprintf("the capacity search in %s: %s over %s", cfg.FromRun, c.from, units.CountOf(int64(n), "instance", "instances"))
	} else if cfg.FromRun != "" {
		per, from, runNotes, atLeast, err := sustainedPerInstance(cfg, n)
		if err != nil {
			return err
		}
		in.PerInstance, in.PerInstanceFrom, in.PerInstanceAtLeast = per, from, atLeast
		notes = runNotes
	}
	res, err := estimate.Estimate(in)
	if err != nil {
		return err
	}
	res.Notes = append(res.Notes, notes...)
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

// searched is what a capacity search's directory says one instance sustains.
type searched struct {
	requests float64 // req/s at the highest sustainable rate
	atLeast  bool    // no step failed the SLO: the capacity is only known from below
	from     string  // the figure's origin in words, with its units
}

// capacityPerInstance reads the highest sustainable rate of a capacity
// search's directory, in requests per second; ok is false when dir is not
// one. The search raises iterations per second; estimate plans requests.
func capacityPerInstance(dir string) (c searched, ok bool, err error) {
	if dir == "" {
		return c, false, nil
	}
	file := filepath.Join(dir, "capacity.json")
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return c, false, nil
	}
	if err != nil {
		return c, false, err
	}
	var res capacity.Result
	if err := json.Unmarshal(b, &res); err != nil {
		return c, false, fmt.Errorf("%s: %w", file, err)
	}
	if res.Highest <= 0 {
		return c, false, fmt.Errorf("the capacity search in %s found no sustainable rate to plan with", dir)
	}
	per := res.Config.RequestsPerIteration
	if per <= 0 {
		return c, false, fmt.Errorf("%s does not say how many requests an iteration sent (an older loadlens wrote it): "+
			"its %s cannot be planned in req/s; run the search again", file, capacity.Iterations(res.Highest))
	}
	c = searched{requests: res.Highest * per, atLeast: res.LowestFailing == 0}
	c.from = fmt.Sprintf("%s × %s = %s", capacity.Iterations(res.Highest), units.Quantity(per, "request", "requests"), units.Rate(c.requests, "req"))
	if c.atLeast {
		c.from = "at least " + c.from + ", as no step failed the SLO"
	}
	return c, true, nil
}

// ErrNoSustainableRate is returned when no second of a --from-run run met
// its SLO: there is no per-instance capacity to divide by.
var ErrNoSustainableRate = errors.New("no sustainable rate")

// sustainedPerInstance takes one instance's capacity from a run: the
// successful requests per second of its steady part's seconds that met the
// SLO (estimate.SLOFor: the --latency-goal and --max-errors given, else the
// run's thresholds, else the starter test's defaults), over n instances;
// the notes warn when fewer than half its seconds met the SLO, and name the
// run's thresholds not judged. atLeast says every second met the SLO: the
// run never reached the target's limit, so its rate is a lower bound.
func sustainedPerInstance(cfg EstimateConfig, n int) (per float64, from string, notes []string, atLeast bool, err error) {
	db := app.RunDB(cfg.FromRun)
	rd, err := app.OpenRun(db)
	if err != nil {
		return 0, "", nil, false, err
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		return 0, "", nil, false, err
	}
	defs, err := app.DecodeThresholds(rd.Meta().Extra["thresholds"], rd.Meta().Layout)
	if err != nil {
		return 0, "", nil, false, fmt.Errorf("%s: %w", db, err)
	}
	slo := estimate.SLOFor(cfg.Input.LatencyGoal, cfg.Input.MaxErrors, defs)
	part, _ := compare.Steady(run)
	var steady []metrics.Second
	for _, s := range run.Series {
		if s.Sec >= part.First && s.Sec <= part.Last {
			steady = append(steady, s)
		}
	}
	got := estimate.SustainedRate(steady, slo)
	if got.Met == 0 {
		return 0, "", nil, false, noSustainableRate(cfg.FromRun, slo, got)
	}
	if got.Met*2 < got.Seconds {
		notes = append(notes, fmt.Sprintf("only %s of the %s of %s's steady part met its SLO: the per-instance rate is what "+
			"the target kept in its good seconds, not a rate it held; confirm it with `loadlens capacity`",
			units.Count(int64(got.Met)), units.CountOf(int64(got.Seconds), "second", "seconds"), cfg.FromRun))
	}
	notes = append(notes, sloNotes(slo)...)
	atLeast = got.Met == got.Seconds
	from = fmt.Sprintf("the successful requests of %s: %s over the %s of its steady part's %s that met %s, "+
		"over %s", cfg.FromRun, units.Rate(got.Rate, "req"), units.Count(int64(got.Met)),
		units.CountOf(int64(got.Seconds), "second", "seconds"), slo.Source, units.CountOf(int64(n), "instance", "instances"))
	if atLeast {
		from = fmt.Sprintf("the successful requests of %s: %s in every one of the %s of its steady part, each within %s, "+
			"so the run never reached the target's limit; over %s", cfg.FromRun, units.Rate(got.Rate, "req"),
			units.CountOf(int64(got.Seconds), "second", "seconds"), slo.Source, units.CountOf(int64(n), "instance", "instances"))
	}
	return got.Rate / float64(n), from, notes, atLeast, nil
}

// noSustainableRate is the error of a run no second of which met its SLO.
func noSustainableRate(run string, slo estimate.SLO, got estimate.Sustained) error {
	why := fmt.Sprintf("none of the %s of the steady part of %s met %s (%s), so the run shows no rate "+
		"one instance sustains: find one with `loadlens capacity`",
		units.CountOf(int64(got.Seconds), "second", "seconds"), run, slo.Source, got.Why())
	if len(slo.Unjudged) > 0 {
		why += "; not judged per second: " + strings.Join(slo.Unjudged, ", ")
	}
	// fail prints "loadlens: " before the first line.
	wrapped := units.Wrap(ErrNoSustainableRate.Error()+": "+why, units.Columns, "          ", "  ")
	return fmt.Errorf("%w%s", ErrNoSustainableRate,
		strings.TrimSuffix(strings.TrimPrefix(wrapped, "          "+ErrNoSustainableRate.Error()), "\n"))
}

// sloNotes names the run's thresholds the SLO does not judge: those no
// second can be judged on, and those a flag given replaced.
func sloNotes(slo estimate.SLO) []string {
	var out []string
	if len(slo.Unjudged) > 0 {
		out = append(out, "the run's "+units.Plural(int64(len(slo.Unjudged)), "threshold ", "thresholds ")+strings.Join(slo.Unjudged, ", ")+
			" cannot be judged on one second (a filter, a percentile or a metric not kept per second): the per-instance rate "+
			"does not account for "+units.Plural(int64(len(slo.Unjudged)), "it", "them")+"; `loadlens capacity` judges every threshold")
	}
	if len(slo.Replaced) > 0 {
		out = append(out, "the run's "+strings.Join(slo.Replaced, ", ")+" gave way to the --latency-goal or --max-errors given")
	}
	return out
}
