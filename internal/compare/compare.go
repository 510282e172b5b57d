// Package compare compares finished runs: per endpoint and overall, the
// throughput, p50/p95/p99, error rate and checks of each run (or group of
// runs) against the first, with a 95 % confidence interval for every change
// and a verdict — benchstat's "~" where there is no significant change.
//
// Only the steady part of each run is compared: the hold of the test's own
// stages when the caller found one in the run's test, else the longest
// stretch of the data at a steady load; ramps, the first seconds of warm-up
// and the last partial second are left out. The seconds of a load test are
// not independent (a slow patch lasts several seconds), so the intervals do
// not treat them as such:
//
//   - one run per side: a circular block bootstrap over the compared seconds,
//     with blocks as long as the data's autocorrelation asks (Politis and
//     White), and a minimum effect — the larger difference between the two
//     halves of either run — below which no change is called;
//   - several runs per side (A1 A2 A3 vs B1 B2 B3): the runs are the
//     replicates, and Welch's t interval compares their figures.
//
// docs/compare.md gives the formulas and the false-positive rate.
package compare

import (
	"errors"
	"fmt"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// Input is one run to compare.
type Input struct {
	Name string            // how tables name the run, e.g. its directory's base name
	Tags map[string]string // the run's labels (run --tag), shown beside its name
	Run  *metrics.Run      // the whole run; its Series finds the steady part
	// Snapshots, when set, calls fn with each stored second of the run in
	// order. Compare reads the compared seconds from it: exact percentiles
	// and checks over them, and per-second histograms to resample. Without
	// it, percentiles and checks are whole-run figures and are not tested.
	Snapshots func(fn func(*metrics.Snapshot) error) error
	// Holds are the stretches where the test's schedule holds its load
	// constant, found by the caller in the run's test; none means the
	// steady part is found in the data.
	Holds []Hold
	// Note, when set, says how the caller read the run, for the report:
	// e.g. why it found no holds.
	Note string
	// HostSteal is, by Second.Sec, the share of the generator's host's
	// CPU time the hypervisor gave to other machines (CPU steal); nil
	// when not recorded (agents, old runs).
	HostSteal map[int]float64
	// Instances is, by role label, how many targets of that role the run
	// scraped (its up series): 2 app instances behind a proxy read
	// {"app": 2}. nil when it scraped none.
	Instances map[string]int
}

// Hold is a stretch of seconds over which a test's stages hold the load
// constant, its warm-up and partial seconds already left out.
type Hold struct {
	First, Last int     // Second.Sec values, inclusive
	Load        float64 // the scheduled load in the run's load unit; 0 to measure it from the data
}

// Options tune a comparison; zero values take the defaults.
type Options struct {
	Alpha         float64 // 1 − the intervals' confidence; default 0.05
	LoadTolerance float64 // how far loads may differ and still compare fairly; default 0.10
	Resamples     int     // bootstrap resamples; default 1000
}

// Report is the comparison of groups of runs against the first group.
type Report struct {
	Alpha  float64     `json:"alpha"`  // 1 − the intervals' confidence
	Method string      `json:"method"` // how intervals were computed
	Groups []GroupInfo `json:"groups"` // the compared sides; the first is the baseline
	Runs   []RunInfo   `json:"runs"`   // every run, in input order
	Rows   []Row       `json:"rows"`   // all endpoints first, then each endpoint
	// Scaling explains, with Little's law, how throughput followed the
	// load where a group ran at another load than the baseline.
	Scaling []Scaling `json:"scaling,omitempty"`
	Notes   []string  `json:"notes,omitempty"` // caveats that apply to every row
	// Gates are the --fail-on-regression gates judged, when any were
	// given: a script reading the JSON sees which failed and why.
	Gates []GateResult `json:"gates,omitempty"`

	// Seconds and Loads are each run's seconds and its load in each of
	// them, in input order: what a page charts.
	Seconds [][]metrics.Second `json:"-"`
	Loads   [][]float64        `json:"-"`
	// LastCovered is the share of each run's last second that it lasted
	// (metrics.Run.Covered): a page charts that second's rates over it.
	LastCovered []float64 `json:"-"`

	endpoints []string    // every endpoint's name, for gates
	steal     []float64   // each run's median CPU steal share over its compared seconds; -1 unknown
	lags      []lagLevels // each run's scheduler lag over its compared seconds (laglevels.go)
}

// GroupInfo is one side of the comparison: one run, or several runs of the
// same test taken as replicates.
type GroupInfo struct {
	Name       string  `json:"name"`       // A, B, C, ...
	Runs       []int   `json:"runs"`       // indexes into Report.Runs
	LoadUnit   string  `json:"load_unit"`  // "req/s" or "VUs"
	Load       float64 `json:"load"`       // mean load of its runs over the compared seconds
	Comparable bool    `json:"comparable"` // every run's load matches the baseline's
}

// RunInfo says which part of a run was compared and whether its load
// matches the baseline's.
type RunInfo struct {
	Name       string  `json:"name"`           // as given in Input
	Label      string  `json:"label"`          // A, B, ... or A1, A2, ... within groups
	Group      int     `json:"group"`          // index into Report.Groups
	Model      string  `json:"model"`          // "arrival-rate", "vus" or "mixed"
	LoadUnit   string  `json:"load_unit"`      // "req/s" or "VUs"
	Load       float64 `json:"load"`           // mean load over the compared seconds
	First      int     `json:"first_second"`   // the first compared second (Second.Sec)
	Last       int     `json:"last_second"`    // the last compared second, inclusive
	Seconds    int     `json:"seconds"`        // compared
	RunSeconds int     `json:"run_seconds"`    // in the whole run
	Source     string  `json:"source"`         // "stages" (the test's hold), "data" or "whole run"
	Exact      bool    `json:"exact"`          // percentiles and checks over the compared seconds only
	Comparable bool    `json:"comparable"`     // the load matches the baseline's
	Note       string  `json:"note,omitempty"` // why not, or how the part was chosen
	// Tags are the run's labels (run --tag, e.g. fix=pool-50), which say
	// what changed between runs of a road of fixes.
	Tags map[string]string `json:"tags,omitempty"`
}

// Row is the figures of one endpoint (or of all of them) in every group.
type Row struct {
	Name  string `json:"name"`    // "all endpoints" or the endpoint
	Lines []Line `json:"metrics"` // one per Metric, in Metric order
}

// Line is one metric of a row: a value per group.
type Line struct {
	Metric Metric  `json:"metric"` // what the line compares
	Values []Value `json:"groups"` // indexed like Report.Groups
}

// Compare compares the runs of ins against the first, each run on its own.
func Compare(ins []Input, opts Options) (*Report, error) {
	groups := make([][]Input, len(ins))
	for i, in := range ins {
		groups[i] = []Input{in}
	}
	return CompareGroups(groups, opts)
}

// CompareGroups compares groups of runs against the first group. A group
// of several runs is taken as replicates of one test.
func CompareGroups(groups [][]Input, opts Options) (*Report, error) {
	var ins []Input
	var groupOf []int
	for g, grp := range groups {
		if len(grp) == 0 {
			return nil, fmt.Errorf("compare: group %s has no runs", letter(g))
		}
		for _, in := range grp {
			ins = append(ins, in)
			groupOf = append(groupOf, g)
		}
	}
	if len(groups) < 2 {
		return nil, errors.New("compare: give at least two runs: the baseline first, then the runs to compare with it (or A1 A2 vs B1 B2)")
	}
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	if opts.LoadTolerance == 0 {
		opts.LoadTolerance = 0.10
	}
	if opts.Resamples == 0 {
		opts.Resamples = defaultResamples
	}
	if opts.Alpha <= 0 || opts.Alpha >= 1 || opts.LoadTolerance < 0 || opts.Resamples < 100 {
		return nil, fmt.Errorf("compare: alpha %v must be between 0 and 1, the load tolerance %v not negative and resamples %d at least 100",
			opts.Alpha, opts.LoadTolerance, opts.Resamples)
	}
	rep := &Report{Alpha: opts.Alpha}
	for i, in := range ins {
		if in.Run == nil || len(in.Run.Series) == 0 {
			return nil, fmt.Errorf("compare: run %d (%s) recorded no seconds", i+1, in.Name)
		}
		rep.Seconds = append(rep.Seconds, in.Run.Series)
		rep.LastCovered = append(rep.LastCovered, in.Run.Covered(len(in.Run.Series)-1))
	}
	rep.Runs, rep.Loads = chooseParts(ins, opts.LoadTolerance)
	for i := range rep.Runs {
		rep.steal = append(rep.steal, medianSteal(ins[i].HostSteal, rep.Runs[i]))
	}
	for i := range rep.Runs {
		rep.Runs[i].Group = groupOf[i]
		if i > 0 {
			rep.Runs[i].Note = join(rep.Runs[i].Note, lagNote(ins[i].Run.Series, ins[0].Run.Series, rep.Runs[i], rep.Runs[0]))
			rep.Runs[i].Note = join(rep.Runs[i].Note, stealNote(rep.steal[i], rep.steal[0]))
		}
	}
	rep.Groups = groupInfos(rep.Runs, len(groups))
	keys, index := endpointKeys(ins)
	rep.endpoints = keys
	views := make([]*runView, len(ins))
	feeds := sessionFeeds(ins)
	for i, in := range ins {
		v, err := readView(in, rep.Runs[i], index[i], keys, feeds)
		if err != nil {
			return nil, err
		}
		views[i] = v
		rep.lags = append(rep.lags, *v.lag)
		rep.Runs[i].Note = join(rep.Runs[i].Note, failedNote(v))
	}
	c := comparer{opts: opts, groups: rep.Groups, views: views}
	rep.Rows = c.rows(keys)
	rep.Method = c.method()
	rep.Scaling = scalings(rep, views)
	rep.Notes = append(rep.Notes, scaleOutNotes(rep, ins, views)...)
	if !rep.Runs[0].Exact {
		rep.Notes = append(rep.Notes, "percentiles and checks are whole-run figures, ramps included, and are not tested: per-second histograms were not available")
	}
	return rep, nil
}

// groupInfos sums up each group's runs and labels them.
func groupInfos(runs []RunInfo, n int) []GroupInfo {
	out := make([]GroupInfo, n)
	for g := range out {
		out[g] = GroupInfo{Name: letter(g), Comparable: true}
	}
	for i, r := range runs {
		g := &out[r.Group]
		g.Runs = append(g.Runs, i)
		g.LoadUnit = r.LoadUnit
		g.Load += r.Load
		g.Comparable = g.Comparable && r.Comparable
	}
	for g := range out {
		out[g].Load /= float64(len(out[g].Runs))
		for k, i := range out[g].Runs {
			runs[i].Label = out[g].Name
			if len(out[g].Runs) > 1 {
				runs[i].Label = fmt.Sprintf("%s%d", out[g].Name, k+1)
			}
		}
	}
	return out
}

// Steady finds the steady part of one run as Compare would for a baseline
// without holds, and the completed requests per second over it: the figure
// to take from a finished run of one instance when planning capacity.
func Steady(r *metrics.Run) (part RunInfo, throughput float64) {
	if r == nil || len(r.Series) == 0 {
		return RunInfo{}, 0
	}
	infos, _ := chooseParts([]Input{{Run: r}}, 0.10)
	part = infos[0]
	var reqs int64
	for _, s := range r.Series {
		if s.Sec >= part.First && s.Sec <= part.Last {
			reqs += s.Requests
		}
	}
	return part, float64(reqs) / float64(part.Seconds)
}

// letter names the i-th group in tables: A, B, C, ...
func letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("G%d", i+1)
}

// failedNote says when more of a run's compared requests failed than its
// p95 leaves out: its percentiles then time failures too (a refused
// connection takes microseconds), and latency gates fail or are not judged.
func failedNote(v *runView) string {
	reqs, failed := v.counts(0)
	if reqs == 0 || float64(failed)/float64(reqs) <= P95.leftOut() {
		return ""
	}
	return fmt.Sprintf("%s of its %s requests failed (%s): its latencies time the failures too, so they are no latencies of answers",
		units.Count(failed), units.Count(reqs), units.Percent(float64(failed)/float64(reqs)))
}
