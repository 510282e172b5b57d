package main

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlens/loadlens/internal/history"
)

// Which recorded steps the method must find: those at least stepOverNoise
// times the noise between the runs of both phases around them (σ of the
// log, the larger, at least the method's floor of 1 %), within foundBy
// counted runs of the new phase. At 2 % noise a 10 % step (5 σ) is found
// within 3 runs in 95–96 % of synthetic series (docs/history.md).
const (
	stepOverNoise = 5
	foundBy       = 3
	// silentBelow is the noise (σ of the log, in any phase) below which a
	// figure must show no change point away from the phases' starts; at
	// more, as the p(95) of 6-s runs on a busy host, it is written in the
	// table but not held (the synthetic grid stops at 10 %).
	silentBelow = 0.10
)

// noisy says whether xs varies by silentBelow or more within some phase.
func noisy(xs []float64, starts []int) bool {
	for i := range starts {
		if phaseSD(xs, starts, i) >= silentBelow {
			return true
		}
	}
	return false
}

// checkRecorded returns what in r contradicts docs/history.md's claims on
// the real series: no figure stepping far above its noise at the
// regression's start, a step far above the noise not found by the
// foundBy-th counted run of its phase, or, the method running after every
// run, any change point away from a phase start on any endpoint's figures.
func checkRecorded(r *Recorded) []string {
	m := r.method(history.DefaultMethod)
	starts, names := r.phases()
	var problems []string
	stepped := false // some figure steps above its noise at the regression
	for _, ep := range r.endpoints() {
		for _, f := range history.Figures {
			xs := r.series(ep, f)
			for i := 1; f.Relative() && i < len(starts); i++ { // errors: none were recorded
				change := phaseStep(xs, starts, i)
				step := math.Abs(math.Log1p(change))
				noise := max(phaseSD(xs, starts, i-1), phaseSD(xs, starts, i), m.Floor)
				if step < stepOverNoise*noise {
					continue
				}
				stepped = stepped || i == 1
				if fd := find(m, xs, starts, i); !fd.Found || fd.Counted > foundBy {
					problems = append(problems, fmt.Sprintf("%s %s: the %s's step of %+.0f %% (noise %.1f %%) %s, want found within %d counted runs",
						ep, f, names[i], 100*change, 100*noise, fd, foundBy))
				}
			}
			if noisy(xs, starts) {
				continue // the host's noise, not the service's: the table says what it did
			}
			if at := strays(m, xs, starts, f.Relative()); len(at) > 0 {
				problems = append(problems, fmt.Sprintf("%s %s: change points away from the phases' starts at %s", ep, f, runList(at)))
			}
		}
	}
	if !stepped {
		problems = append(problems, fmt.Sprintf("no figure steps by %d times its noise at the %s: no real step to find", stepOverNoise, names[1]))
	}
	return append(problems, checkServer(r, m)...)
}

// How near the step loadlens measured must be to the server's own, on the
// log; and below which the server's step is no step (the control path).
const (
	serverAgrees = 0.03
	serverSilent = 0.02
)

// checkServer holds a recording against the step server's own timing: on
// every path it timed, each phase's step in loadlens's p(50) within
// serverAgrees of the server's own; where the server stepped, the change
// point reported at the phase's first run exactly, its interval around
// the server's step; where it did not, no change point on any figure,
// while running or at the end.
func checkServer(r *Recorded, m history.Method) []string {
	if r.Server == nil {
		return nil
	}
	starts, names := r.phases()
	var problems []string
	for _, ep := range r.endpoints() {
		if r.serverPath(ep) == "" {
			continue
		}
		truth, xs := r.serverSeries(ep), r.series(ep, history.P50)
		silent := true
		for i := 1; i < len(starts); i++ {
			want, got := phaseStep(truth, starts, i), phaseStep(xs, starts, i)
			if math.Abs(math.Log1p(got)-math.Log1p(want)) > serverAgrees {
				problems = append(problems, fmt.Sprintf("%s p(50): the %s's step %+.1f %%, the server's own %+.1f %%", ep, names[i], 100*got, 100*want))
			}
			if math.Abs(math.Log1p(want)) < serverSilent {
				continue
			}
			silent = false
			fd := find(m, xs, starts, i)
			switch {
			case !fd.Found:
				problems = append(problems, fmt.Sprintf("%s p(50): the %s's step (the server's %+.1f %%) not found", ep, names[i], 100*want))
			case fd.Step.At != starts[i]:
				problems = append(problems, fmt.Sprintf("%s p(50): the %s's step reported from run %d, it began at run %d", ep, names[i], fd.Step.At+1, starts[i]+1))
			case want < fd.Step.Lo-serverAgrees || want > fd.Step.Hi+serverAgrees:
				problems = append(problems, fmt.Sprintf("%s p(50): the %s's step %+.1f %% [%+.1f, %+.1f], the server's own %+.1f %%", ep, names[i], 100*fd.Step.Change, 100*fd.Step.Lo, 100*fd.Step.Hi, 100*want))
			}
		}
		if !silent {
			continue
		}
		for _, f := range history.Figures {
			fs := r.series(ep, f)
			at := append(strays(m, fs, []int{0}, f.Relative()), atOf(m.Detect(fs, f.Relative()))...)
			if slices.Sort(at); len(at) > 0 {
				problems = append(problems, fmt.Sprintf("%s %s: the server never changed it, change points at %s", ep, f, runList(slices.Compact(at))))
			}
		}
	}
	return problems
}

func atOf(steps []history.Step) []int {
	var at []int
	for _, s := range steps {
		at = append(at, s.At)
	}
	return at
}

// TestRecordedSeries holds each recording to what docs/history.md says of
// it, and checks that the check can fail: with the second phase's start
// labelled 3 runs late, or the runs' figures shuffled under their labels,
// it must find problems; and, for the step server's recording, with one
// path's timing swapped for another's.
func TestRecordedSeries(t *testing.T) {
	for _, file := range []string{"testdata/demo.json", "testdata/steps.json"} {
		t.Run(file, func(t *testing.T) { checkFile(t, file) })
	}
}

func checkFile(t *testing.T, file string) {
	rec, err := readRecorded(file)
	if err != nil {
		t.Fatal(err)
	}
	starts, _ := rec.phases()
	if len(starts) != 3 {
		t.Fatalf("%s has %d phases, want 3 (base, step or regression, fix)", file, len(starts))
	}
	for _, tc := range []struct {
		name   string
		mutate func(*Recorded)
		ok     bool
	}{
		{"as recorded", func(*Recorded) {}, true},
		{"the second phase labelled 3 runs late", func(r *Recorded) {
			for i := starts[1]; i < starts[1]+3; i++ {
				r.Runs[i].Tags = map[string]string{"phase": r.Runs[0].Tags["phase"]}
			}
		}, false},
		{"the figures shuffled under their labels", func(r *Recorded) {
			tags := make([]map[string]string, len(r.Runs))
			for i := range r.Runs {
				tags[i] = r.Runs[i].Tags
			}
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(r.Runs), func(i, j int) { r.Runs[i], r.Runs[j] = r.Runs[j], r.Runs[i] })
			for i := range r.Runs {
				r.Runs[i].Tags = tags[i]
			}
		}, false},
		{"the server's timing of /c and /control swapped", func(r *Recorded) {
			for _, t := range r.Server {
				t["/c"], t["/control"] = t["/control"], t["/c"]
			}
		}, rec.Server == nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Recorded{Runs: make([]history.Run, len(rec.Runs))}
			for i, run := range rec.Runs {
				run.Tags = maps.Clone(run.Tags)
				r.Runs[i] = run
			}
			for _, t := range rec.Server {
				r.Server = append(r.Server, maps.Clone(t))
			}
			tc.mutate(r)
			problems := checkRecorded(r)
			switch {
			case tc.ok:
				for _, p := range problems {
					t.Error(p)
				}
			case len(problems) == 0:
				t.Error("the check found nothing wrong")
			default:
				t.Logf("as it should, the check found: %v", problems)
			}
		})
	}
}
