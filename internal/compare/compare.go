// Package compare compares finished runs: per endpoint and overall, the
// throughput, p50/p95/p99, error rate and checks of each run against the
// first (the baseline), with the absolute and relative change and whether
// the change is statistically significant — benchstat's "~" for none.
//
// Only the steady part of each run is compared: ramp-up and ramp-down
// seconds describe a different load. When runs were made at different
// loads, each run's stretch at the baseline's load is used where it has one
// (a staircase run has a step at it), and the report says when no fair
// comparison is possible. Significance comes from the Mann-Whitney U test
// over the per-second figures of the steady parts. Seconds of a load test
// are not fully independent (caches warm, pauses last longer than a
// second), so p-values are somewhat optimistic; a gate should ask for a
// change large enough to matter, not just a significant one.
package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/metrics"
)

// Input is one run to compare.
type Input struct {
	Name string       // how tables name the run, e.g. its directory's base name
	Run  *metrics.Run // the whole run; its Series finds the steady part
	// Window, when set, returns the run restricted to the seconds first to
	// last (Second.Sec values, inclusive) with exact histograms, built from
	// the stored per-second snapshots. Without it, percentiles and checks
	// are whole-run figures, ramps included, and the report says so.
	Window func(first, last int) (*metrics.Run, error)
}

// Options tune a comparison; zero values take the defaults.
type Options struct {
	Alpha         float64 // significance level; default 0.05
	LoadTolerance float64 // how far loads may differ and still compare fairly; default 0.10
}

// Report is the comparison of runs against the first.
type Report struct {
	Alpha float64   `json:"alpha"`           // the significance level used
	Runs  []RunInfo `json:"runs"`            // in input order; the first is the baseline
	Rows  []Row     `json:"rows"`            // all endpoints first, then each endpoint
	Notes []string  `json:"notes,omitempty"` // caveats that apply to every row

	series    [][]metrics.Second // each run's seconds, for the HTML page
	load      [][]float64        // each run's load per second, for the HTML page
	endpoints []string           // every endpoint's name, for gates
}

// RunInfo says which part of a run was compared and whether its load
// matches the baseline's.
type RunInfo struct {
	Name       string  `json:"name"`           // as given in Input
	Model      string  `json:"model"`          // "arrival-rate", "vus" or "mixed"
	LoadUnit   string  `json:"load_unit"`      // "req/s" or "VUs"
	Load       float64 `json:"load"`           // mean load over the compared seconds
	First      int     `json:"first_second"`   // the first compared second (Second.Sec)
	Last       int     `json:"last_second"`    // the last compared second, inclusive
	Seconds    int     `json:"seconds"`        // compared
	RunSeconds int     `json:"run_seconds"`    // in the whole run
	Exact      bool    `json:"exact"`          // percentiles and checks over the compared seconds only
	Comparable bool    `json:"comparable"`     // the load matches the baseline's
	Note       string  `json:"note,omitempty"` // why not, or how the part was chosen
}

// Row is the figures of one endpoint (or of all of them) in every run.
type Row struct {
	Name  string `json:"name"`    // "all endpoints" or the endpoint
	Lines []Line `json:"metrics"` // one per Metric, in Metric order
}

// Line is one metric of a row: a value per run.
type Line struct {
	Metric Metric  `json:"metric"` // what the line compares
	Values []Value `json:"runs"`   // indexed like Report.Runs
}

// Value is one run's figure and, for every run but the baseline, its
// change against the baseline.
type Value struct {
	Has         bool     // false when the run has no such data (endpoint absent, no checks)
	Value       float64  // req/s, milliseconds, or a ratio for errors and checks
	Samples     int      // per-second samples (check outcomes for checks)
	Delta       *float64 // Value minus the baseline's
	DeltaPct    *float64 // Delta as a percentage of the baseline's; nil when that is 0
	P           *float64 // p-value of the change; nil when it could not be tested
	Significant bool     // P < alpha
}

// Compare compares the runs of ins against the first.
func Compare(ins []Input, opts Options) (*Report, error) {
	if len(ins) < 2 {
		return nil, errors.New("compare: give at least two runs: the baseline first, then the runs to compare with it")
	}
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	if opts.LoadTolerance == 0 {
		opts.LoadTolerance = 0.10
	}
	if opts.Alpha <= 0 || opts.Alpha >= 1 || opts.LoadTolerance < 0 {
		return nil, fmt.Errorf("compare: alpha %v must be between 0 and 1 and the load tolerance %v not negative", opts.Alpha, opts.LoadTolerance)
	}
	rep := &Report{Alpha: opts.Alpha}
	for i, in := range ins {
		if in.Run == nil || len(in.Run.Series) == 0 {
			return nil, fmt.Errorf("compare: run %d (%s) recorded no seconds", i+1, in.Name)
		}
		rep.series = append(rep.series, in.Run.Series)
	}
	rep.Runs, rep.load = chooseParts(ins, opts.LoadTolerance)
	views := make([]*runView, len(ins))
	for i, in := range ins {
		v, err := newRunView(in, rep.Runs[i])
		if err != nil {
			return nil, err
		}
		views[i] = v
	}
	rep.Rows, rep.endpoints = buildRows(views, opts.Alpha)
	if !rep.Runs[0].Exact {
		rep.Notes = append(rep.Notes, "percentiles and checks are whole-run figures, ramps included: per-second histograms were not available")
	}
	return rep, nil
}

// Steady finds the steady part of one run as Compare would for a baseline,
// and the completed requests per second over it: the figure to take from
// a finished run of one instance when planning capacity.
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

// chooseParts picks the compared seconds of every run: the baseline's
// longest steady part, then in each other run its longest steady part at
// the baseline's load, or its longest one when it has none. It returns the
// load series too.
func chooseParts(ins []Input, tol float64) ([]RunInfo, [][]float64) {
	out := make([]RunInfo, len(ins))
	levels := make([][]float64, len(ins))
	var base RunInfo
	for i, in := range ins {
		model, unit, level := loadOf(in.Run)
		levels[i] = level
		segs := Segments(level, tol)
		long := func(s Segment) bool { return steady(s, level, tol) }
		info := RunInfo{Name: in.Name, Model: model, LoadUnit: unit, RunSeconds: len(level), Exact: in.Window != nil}
		var seg Segment
		found := false
		if i > 0 && unit == base.LoadUnit {
			seg, found = longest(segs, func(s Segment) bool { return long(s) && sameLoad(s.Level, base.Load, tol) })
		}
		if !found {
			seg, found = longest(segs, long)
		}
		if found {
			seg = trim(seg, level, tol)
		} else {
			seg = Segment{First: 0, Last: len(level) - 1, Level: mean(level)}
			info.Note = fmt.Sprintf("no steady part of %d s or more: the whole run is compared", minSteady)
		}
		info.First, info.Last = in.Run.Series[seg.First].Sec, in.Run.Series[seg.Last].Sec
		info.Seconds, info.Load = seg.Len(), seg.Level
		info.Comparable = i == 0 || (unit == base.LoadUnit && sameLoad(seg.Level, base.Load, tol))
		if i == 0 {
			base = info
		} else if !info.Comparable {
			info.Note = join(info.Note, unfairNote(info, base))
		}
		out[i] = info
	}
	return out, levels
}

// steady reports whether a segment is long enough and flat: its trend
// line moves less than half the tolerance from end to end, which a hold
// meets and the top of a ramp, though within the tolerance, does not.
func steady(s Segment, level []float64, tol float64) bool {
	if s.Len() < minSteady {
		return false
	}
	return math.Abs(slope(level[s.First:s.Last+1]))*float64(s.Len()-1) <= max(tol/2*s.Level, loadSlack)
}

// slope is the least-squares slope of x over its index.
func slope(x []float64) float64 {
	n := float64(len(x))
	if n < 2 {
		return 0
	}
	mx, my := (n-1)/2, mean(x)
	var sxy, sxx float64
	for i, v := range x {
		dx := float64(i) - mx
		sxy += dx * (v - my)
		sxx += dx * dx
	}
	return sxy / sxx
}

// unfairNote says why a run cannot be compared fairly with the baseline.
func unfairNote(r, base RunInfo) string {
	if r.LoadUnit != base.LoadUnit {
		return fmt.Sprintf("load models differ (%s vs the baseline's %s): compared over its steady part anyway", r.Model, base.Model)
	}
	return fmt.Sprintf("load %s %s vs the baseline's %s %s (%s): not the same load, compared over its steady part anyway",
		fmtNum(r.Load), r.LoadUnit, fmtNum(base.Load), base.LoadUnit, signedPct(100*(r.Load-base.Load)/base.Load))
}

// sameLoad reports whether load a is within tol (plus the slack) of b.
func sameLoad(a, b, tol float64) bool { return math.Abs(a-b) <= max(tol*b, loadSlack) }

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// join joins two notes with "; ", skipping empty ones.
func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
