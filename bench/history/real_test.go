package main

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlens/loadlens/internal/history"
)

// Which recorded steps the method must find: those at least stepOverNoise
// times the noise between the runs of both phases around them (σ of the
// log, the larger, at least the method's floor of 1 %), within foundBy
// counted runs of the new phase. At 2 % noise a 10 % step (5 σ) is found
// within 3 runs in 93–94 % of synthetic series (docs/history.md).
const (
	stepOverNoise = 5
	foundBy       = 3
)

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
			if at := strays(m, xs, starts, f.Relative()); len(at) > 0 {
				problems = append(problems, fmt.Sprintf("%s %s: change points away from the phases' starts at %s", ep, f, runList(at)))
			}
		}
	}
	if !stepped {
		problems = append(problems, fmt.Sprintf("no figure steps by %d times its noise at the %s: no real step to find", stepOverNoise, names[1]))
	}
	return problems
}

// TestRecordedSeries holds the recording to what docs/history.md says of
// it, and checks that the check can fail: with the regression's start
// labelled 3 runs late, or the runs' figures shuffled under their labels,
// it must find problems.
func TestRecordedSeries(t *testing.T) {
	rec, err := readRecorded("testdata/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	starts, _ := rec.phases()
	if len(starts) != 3 {
		t.Fatalf("testdata/demo.json has %d phases, want 3 (base, regression, fix)", len(starts))
	}
	for _, tc := range []struct {
		name   string
		mutate func([]history.Run)
		ok     bool
	}{
		{"as recorded", func([]history.Run) {}, true},
		{"the regression labelled 3 runs late", func(runs []history.Run) {
			for i := starts[1]; i < starts[1]+3; i++ {
				runs[i].Tags = map[string]string{"phase": runs[0].Tags["phase"]}
			}
		}, false},
		{"the figures shuffled under their labels", func(runs []history.Run) {
			tags := make([]map[string]string, len(runs))
			for i := range runs {
				tags[i] = runs[i].Tags
			}
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
			for i := range runs {
				runs[i].Tags = tags[i]
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := make([]history.Run, len(rec.Runs))
			for i, r := range rec.Runs {
				r.Tags = maps.Clone(r.Tags)
				runs[i] = r
			}
			tc.mutate(runs)
			problems := checkRecorded(&Recorded{Runs: runs})
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
