package estimaterun

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// EstimateConfig is what `loadlens estimate` needs.
type EstimateConfig struct {
	Input   estimate.Input
	FromRun string // a run whose steady throughput is one instance's capacity
	RunInst int    // the instances that served that run
	Write   string // also write a starter test file here
	Force   bool   // overwrite Write when it exists
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
		in.PerInstance, in.PerInstanceAtLeast, in.PerInstanceCut, in.Unit = c.requests/float64(n), c.atLeast, c.cut, c.unit
		in.PerInstanceFrom = fmt.Sprintf("the capacity search in %s: %s over %s", cfg.FromRun, c.from, units.CountOf(int64(n), "instance", "instances"))
	} else if cfg.FromRun != "" {
		got, err := sustainedPerInstance(cfg, n)
		if err != nil {
			return err
		}
		in.PerInstance, in.PerInstanceFrom, in.PerInstanceAtLeast, in.Unit = got.per, got.from, got.atLeast, got.unit
		notes = got.notes
	}
	if err := checkWrite(cfg, in.Unit); err != nil {
		return err
	}
	if err := checkNew(cfg); err != nil {
		return err
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
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !cfg.Force {
		flags |= os.O_EXCL // "does not exist yet" and "is ours" in one step
	}
	f, err := os.OpenFile(cfg.Write, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return existsErr(cfg.Write)
	}
	if err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	defer f.Close()
	if err := report.WriteEstimateTest(f, res, plan.NameFor(cfg.Write, "estimate"), base, path); err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	fmt.Fprintf(cfg.Out, "\nwrote %s: run it with `loadlens run %s`\n", cfg.Write, cfg.Write)
	return nil
}

// searched is what a capacity search's directory says one instance sustains.
type searched struct {
	requests float64    // per second of unit at the highest sustainable rate
	unit     units.Unit // what the search's test counted: requests, gRPC calls, sessions
	atLeast  bool       // no step failed the SLO: the capacity is only known from below
	cut      string     // with atLeast, why the search ended before its highest rate (a busy host); "" when it reached it
	from     string     // the figure's origin in words, with its units
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
	c = searched{requests: res.Highest * per, unit: res.Config.Counts(), atLeast: res.LowestFailing == 0}
	c.from = fmt.Sprintf("%s × %s = %s", capacity.Iterations(res.Highest), c.unit.Quantity(per), c.unit.Rate(c.requests))
	if done := res.HighestRequests; done > 0 && done < c.requests {
		// plan on what the step completed, never on more than the target delivered
		c.from = fmt.Sprintf("%s × %s offered, %s completed", capacity.Iterations(res.Highest), c.unit.Quantity(per), c.unit.Rate(done))
		c.requests = done
	}
	if c.atLeast {
		c.cut = cutShort(res)
		c.from = "at least " + c.from + ", as no step failed the SLO"
		if c.cut != "" {
			c.from += " before the search was cut short (" + string(res.Stop) + ")" // the note gives the detail
		}
	}
	return c, true, nil
}

// cutShort is why a search in which no step failed ended before its
// highest rate, in words ("host too busy: the load generator's host could
// not generate 60 iterations/s…"); "" when it reached that rate, the only
// end at which "no step failed" says the instance outran the search.
func cutShort(res capacity.Result) string {
	if res.Stop == capacity.MaxRateReached || res.Stop == "" {
		return ""
	}
	why := string(res.Stop)
	if d, _, _ := strings.Cut(res.StopDetail, " ("); d != "" {
		why += ": " + d // the detail's figures without its diagnosis, which the search's own report shows
	}
	return why
}

// ErrNoSustainableRate is returned when no second of a --from-run run met
// its SLO: there is no per-instance capacity to divide by.
var ErrNoSustainableRate = errors.New("no sustainable rate")

// sustained is what a run says one instance sustains.
type sustained struct {
	per     float64    // per second of unit, over the instances
	unit    units.Unit // what the run's SLO counts: requests, gRPC calls, sessions
	from    string     // the figure's origin in words
	notes   []string   // when fewer than half its seconds met the SLO; the run's thresholds not judged
	atLeast bool       // every second met the SLO: the run never reached the target's limit
}

// sustainedPerInstance takes one instance's capacity from a run: the
// successful requests (gRPC calls, sessions) per second of its steady
// part's seconds that met the SLO (estimate.SLOFor: the --latency-goal and
// --max-errors given, else the run's thresholds, else the starter test's
// defaults, on the run's own latency: estimate.LatencyOf), over n
// instances.
func sustainedPerInstance(cfg EstimateConfig, n int) (sustained, error) {
	db := app.RunDB(cfg.FromRun)
	rd, err := app.OpenRun(db)
	if err != nil {
		return sustained{}, err
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		return sustained{}, err
	}
	defs, err := app.DecodeThresholds(rd.Meta().Extra["thresholds"], rd.Meta().Layout)
	if err != nil {
		return sustained{}, fmt.Errorf("%s: %w", db, err)
	}
	metric := estimate.LatencyOf(run, defs)
	slo := estimate.SLOFor(cfg.Input.LatencyGoal, cfg.Input.MaxErrors, defs, metric)
	slo.Unit = runUnit(run, metric)
	steady, err := steadySeconds(rd.Snapshots, run, metric)
	if err != nil {
		return sustained{}, fmt.Errorf("%s: %w", db, err)
	}
	got := estimate.SustainedRate(steady, slo)
	if len(steady) > 0 && estimate.Ramped(run.Series, steady[0].Sec, steady[len(steady)-1].Sec) {
		got = estimate.SustainedOnRamp(steady, slo, estimate.RampWindow)
		if got.Rate == 0 {
			return sustained{}, noRateOnRamp(cfg.FromRun, slo, got)
		}
		behind := estimate.FellBehind(run.Series, steady[0].Sec, steady[len(steady)-1].Sec)
		return sustainedOnRamp(cfg.FromRun, n, slo, got, behind), nil
	}
	if got.Met == 0 {
		return sustained{}, noSustainableRate(cfg.FromRun, slo, got)
	}
	return sustainedFrom(cfg.FromRun, n, slo, got), nil
}

// sustainedOnRamp words what a ramp's best seconds held, over n instances.
func sustainedOnRamp(run string, n int, slo estimate.SLO, got estimate.Sustained, behind bool) sustained {
	u := slo.Unit.Or()
	out := sustained{per: got.Rate / float64(n), unit: u, atLeast: got.Met == got.Seconds && !behind}
	out.notes = append([]string{"the run ramps its load, so its rate is one the target passed through, not one it held for long: " +
		"`loadlens capacity` holds each rate it judges"}, sloNotes(slo)...)
	held := fmt.Sprintf("the successful %s of %s: %s, the most its load ramp kept over %s in a row that each met %s",
		u.Many, run, u.Rate(got.Rate), units.CountOf(int64(got.Window), "second", "seconds"), slo.Source)
	if out.atLeast {
		out.from = held + ", and no second of the ramp failed it, so the run never reached the target's limit; over " +
			units.CountOf(int64(n), "instance", "instances")
		return out
	}
	if got.Met == got.Seconds { // within the SLO throughout, but its completions fell behind the schedule: a knee
		out.from = held + ", where its completions fell behind what the ramp offered: the target's limit; over " +
			units.CountOf(int64(n), "instance", "instances")
		return out
	}
	out.from = held + " (" + units.Count(int64(got.Seconds-got.Met)) + " of its " +
		units.CountOf(int64(got.Seconds), "second", "seconds") + " failed it); over " + units.CountOf(int64(n), "instance", "instances")
	return out
}

// noRateOnRamp is the error of a ramp no RampWindow seconds in a row of
// which met its SLO.
func noRateOnRamp(run string, slo estimate.SLO, got estimate.Sustained) error {
	return fmt.Errorf("%w: %s ramps its load, and no %s in a row of it met %s (%s): a ramp's single good seconds "+
		"are no rate one instance sustains; find one with `loadlens capacity`", ErrNoSustainableRate, run,
		units.CountOf(int64(got.Window), "second", "seconds"), slo.Source, got.Why())
}

// sustainedFrom words what a run's seconds sustained, over n instances.
func sustainedFrom(run string, n int, slo estimate.SLO, got estimate.Sustained) sustained {
	u := slo.Unit.Or()
	out := sustained{per: got.Rate / float64(n), unit: u, atLeast: got.Met == got.Seconds}
	if got.Met*2 < got.Seconds {
		out.notes = append(out.notes, fmt.Sprintf("only %s of the %s of %s's steady part met its SLO: the per-instance rate is what "+
			"the target kept in its good seconds, not a rate it held; confirm it with `loadlens capacity`",
			units.Count(int64(got.Met)), units.CountOf(int64(got.Seconds), "second", "seconds"), run))
	}
	out.notes = append(out.notes, sloNotes(slo)...)
	instances := units.CountOf(int64(n), "instance", "instances")
	out.from = fmt.Sprintf("the successful %s of %s: %s over the %s of its steady part's %s that met %s, "+
		"over %s", u.Many, run, u.Rate(got.Rate), units.Count(int64(got.Met)),
		units.CountOf(int64(got.Seconds), "second", "seconds"), slo.Source, instances)
	if out.atLeast {
		out.from = fmt.Sprintf("the successful %s of %s: %s on average over the %s of its steady part, every one within %s, "+
			"so the run never reached the target's limit; over %s", u.Many, run, u.Rate(got.Rate),
			units.CountOf(int64(got.Seconds), "second", "seconds"), slo.Source, instances)
	}
	return out
}

// runUnit is what a run's seconds judged on metric count: the metric's
// protocol's (gRPC calls, sessions), or for a request's duration what the
// run's endpoints count together.
func runUnit(run *metrics.Run, metric string) units.Unit {
	if p := estimate.Protocol(metric); p != "" {
		return units.ForProtocol(p)
	}
	protocols := make([]string, len(run.Layout.Endpoints))
	for i, e := range run.Layout.Endpoints {
		protocols[i] = e.Protocol
	}
	return units.ForProtocols(protocols)
}

// steadySeconds are the run's seconds of its steady part as metric judges
// them: the run's own for a request's duration, else each stored second's
// figures of the metric (estimate.MetricSecond).
func steadySeconds(snapshots func(func(*metrics.Snapshot) error) error, run *metrics.Run, metric string) ([]metrics.Second, error) {
	part, _ := compare.Steady(run)
	var steady []metrics.Second
	if metric == estimate.RequestDuration {
		for _, s := range run.Series {
			if s.Sec >= part.First && s.Sec <= part.Last {
				steady = append(steady, s)
			}
		}
		return steady, nil
	}
	err := snapshots(func(s *metrics.Snapshot) error {
		if s.Second >= part.First && s.Second <= part.Last {
			steady = append(steady, estimate.MetricSecond(run, s, metric))
		}
		return nil
	})
	return steady, err
}

// checkNew refuses, before any work is printed, a --write file that
// exists: a test someone edited is not overwritten without --force.
func checkNew(cfg EstimateConfig) error {
	if cfg.Write == "" || cfg.Force {
		return nil
	}
	if _, err := os.Lstat(cfg.Write); err == nil {
		return existsErr(cfg.Write)
	}
	return nil
}

// existsErr says that --write's file exists and how to replace it.
func existsErr(path string) error {
	return fmt.Errorf("--write: %s exists; give --force to overwrite it, or another file name", path)
}

// checkWrite refuses --write when the load is not in requests: the
// starter test it writes sends HTTP requests, which a rate of gRPC calls
// or sessions does not size.
func checkWrite(cfg EstimateConfig, u units.Unit) error {
	if cfg.Write == "" || u.Or() == units.Requests {
		return nil
	}
	return fmt.Errorf("--write writes a starter test of HTTP requests, but --from-run %s counts %s: "+
		"a rate of %s sizes no HTTP test; leave out --write and give your own test the target rate the estimate prints (docs/estimate.md)",
		cfg.FromRun, u.Many, u.PerSecond())
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
