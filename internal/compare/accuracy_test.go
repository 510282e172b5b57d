package compare

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// How often compare errs, measured on synthetic runs of one endpoint of a
// service whose seconds depend on each other (trialRun): the false
// positives over pairs of one service, the false negatives over pairs whose
// second run is 20 % or 50 % slower, over holds of 10–60 s at 20–500
// requests per second. TestCompareAccuracy is the fast, seeded trial the
// test command runs; TestCompareAccuracyGrid (-accuracy-pairs 200) gives
// the table docs/compare.md quotes.

// accuracyPairs sets the pairs per cell and shift of
// TestCompareAccuracyGrid; 0 skips it.
var accuracyPairs = flag.Int("accuracy-pairs", 0, "pairs per cell and shift in TestCompareAccuracyGrid (docs/compare.md quotes 200); 0 skips it")

// trialRun is one synthetic run: a hold of secs seconds at rate requests
// per second, as `loadlens run --duration <secs>s --rate <rate>` makes.
type trialRun struct {
	seed uint64
	secs int     // the hold
	rate int     // requests per second
	slow float64 // every duration times this; 0 means 1
}

// input builds the run's seconds (and a last, half one, as a run's end
// cuts it short), held from WarmUp(secs) to secs − 1 as the test's stages
// give it. Each second the service has a slowness that drifts as an AR(1)
// on its logarithm (φ = 0.7, ±7 %: a slow patch lasts several seconds), in
// 2 % of seconds a pause stalls 5–25 % of the second's requests by
// 10–50 ms (a GC pause, a lock: outlier seconds), and each duration is
// lognormal around 10 ms (σ = 0.4) times the slowness — the model the
// other tests' synth uses, on one endpoint.
func (tr trialRun) input() Input {
	layout := sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /p", Method: "GET"}},
	}
	rng := newRand(tr.seed)
	slow := tr.slow
	if slow == 0 {
		slow = 1
	}
	run := metrics.NewRun(layout)
	var snaps []*metrics.Snapshot
	state := 0.07 * rng.NormFloat64() // the AR(1)'s stationary spread
	for sec := 0; sec <= tr.secs; sec++ {
		state = 0.7*state + 0.05*rng.NormFloat64()
		pauseShare, pause := 0.0, 0.0
		if rng.Float64() < 0.02 {
			pauseShare, pause = 0.05+0.2*rng.Float64(), 10+40*rng.Float64()
		}
		snap := metrics.NewSnapshot(sec, layout)
		n := tr.rate
		if sec == tr.secs {
			n /= 2
		}
		es := &snap.Endpoints[0]
		es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
		for range n {
			ms := 10 * math.Exp(state+0.4*rng.NormFloat64())
			if rng.Float64() < pauseShare {
				ms += pause
			}
			es.Duration.Record(time.Duration(ms * slow * float64(time.Millisecond)))
		}
		es.Requests = int64(n)
		snap.Scenarios[0].Iterations = int64(n)
		run.Add(snap)
		snaps = append(snaps, snap)
	}
	return Input{Name: "r", Run: run, Holds: []Hold{{First: WarmUp(tr.secs), Last: tr.secs - 1, Load: float64(tr.rate)}},
		Snapshots: func(fn func(*metrics.Snapshot) error) error {
			for _, sn := range snaps {
				if err := fn(sn); err != nil {
					return err
				}
			}
			return nil
		}}
}

// cell is a hold and a rate.
type cell struct{ secs, rate int }

func (c cell) String() string { return fmt.Sprintf("%d s at %d/s", c.secs, c.rate) }

// tally counts one cell's pairs at one shift: how many, how many the gate
// 'p(95) +10%' did not judge and failed, and how many the table called p95
// changed and worse.
type tally struct {
	pairs, notJudged, gateFailed, changed, worse int
	unresolved                                   int // not judged as too noisy to resolve the limit
}

func (t *tally) add(o tally) {
	t.pairs, t.notJudged, t.gateFailed = t.pairs+o.pairs, t.notJudged+o.notJudged, t.gateFailed+o.gateFailed
	t.unresolved += o.unresolved
	t.changed, t.worse = t.changed+o.changed, t.worse+o.worse
}

// judged is the pairs the gate judged.
func (t tally) judged() int { return t.pairs - t.notJudged }

// trials compares n pairs of runs in cell c, B slow times slower, and
// tallies them. Pair i of every shift shares its seeds (common random
// numbers): a shift changes the durations, not the draws.
func trials(c cell, slow float64, n int, seed uint64) (tally, error) {
	gate, err := ParseGate("p(95) +10%")
	if err != nil {
		return tally{}, err
	}
	var out tally
	for i := range uint64(n) {
		base := seed + 1_000_000*uint64(c.secs) + 1_000*uint64(c.rate) + 2*i
		a := trialRun{seed: base, secs: c.secs, rate: c.rate}.input()
		b := trialRun{seed: base + 1, secs: c.secs, rate: c.rate, slow: slow}.input()
		r, err := Compare([]Input{a, b}, Options{})
		if err != nil {
			return out, err
		}
		res, v := r.Check([]Gate{gate})[0], r.Rows[0].Lines[P95].Values[1]
		out.pairs++
		switch {
		case res.NotJudged:
			out.notJudged++
			if strings.Contains(res.Reason, "runs this noisy miss a change") {
				out.unresolved++
			}
			continue
		case res.Failed:
			out.gateFailed++
		}
		if v.Significant {
			out.changed++
		}
		if v.Verdict == "worse" {
			out.worse++
		}
	}
	return out, nil
}

// shifted is a shift of B's durations and the cells it is tried in.
type shifted struct {
	name  string
	slow  float64
	cells []cell
}

// TestCompareAccuracy is the seeded trial of the targets issue 20 sets
// compare: at most 5 % false positives on two runs of one service, at
// most 5 % false negatives for a 20 % p95 change — the latter where the
// runs hold enough to decide one. Over 240 pairs of one service (12 in
// each of 20 cells: holds of 10, 20, 30 and 60 s at 20, 50, 100, 200 and
// 500/s), the gate 'p(95) +10%' is not judged where a run holds fewer than
// the 200 requests a p95 needs (10 s at 20/s) and otherwise only where an
// interval is too wide to resolve the limit (see checkJudged); where judged
// it fails, and the table calls p95 changed, in at most 5 %. Where the
// grid (TestCompareAccuracyGrid, 200 pairs a cell) finds the runs decide
// the change — 60-second holds at 100/s or more for +20 %; 30 seconds or
// more at 50/s or more, or 60 s at any rate, for +50 % — the table calls
// p95 a regression, and the gate 'p(95) +10%' fails, in at least 95 % of
// pairs. Binomial tests at 0.5 % keep the seeded trial from failing by
// chance; it takes about 6 CPU-seconds.
func TestCompareAccuracy(t *testing.T) {
	var same []cell
	for _, secs := range []int{10, 20, 30, 60} {
		for _, rate := range []int{20, 50, 100, 200, 500} {
			same = append(same, cell{secs, rate})
		}
	}
	shifts := []shifted{
		{"one service", 1, same},
		{"+20%", 1.2, []cell{{60, 100}, {60, 200}, {60, 500}}},
		{"+50%", 1.5, []cell{{30, 50}, {30, 100}, {30, 500}, {60, 20}, {60, 200}}},
	}
	const pairs = 12
	got := make([][]tally, len(shifts))
	t.Run("cells", func(t *testing.T) {
		for k, sh := range shifts {
			got[k] = make([]tally, len(sh.cells))
			for j, c := range sh.cells {
				t.Run(fmt.Sprintf("%s, %s", sh.name, c), func(t *testing.T) {
					t.Parallel() // seeded per cell: the counts do not depend on the order
					var err error
					if got[k][j], err = trials(c, sh.slow, pairs, 0); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	})
	var fp, fn20, fn50 tally
	for j, c := range same {
		g := got[0][j]
		fp.add(g)
		checkJudged(t, c, g)
	}
	for _, g := range got[1] {
		fn20.add(g)
	}
	for _, g := range got[2] {
		fn50.add(g)
	}
	t.Logf("one service, %d pairs: %d not judged (%d too noisy to resolve the limit); of %d judged, the gate failed %d, p95 called changed %d (worse %d)",
		fp.pairs, fp.notJudged, fp.unresolved, fp.judged(), fp.gateFailed, fp.changed, fp.worse)
	t.Logf("+20%%, %d pairs: p95 a regression in %d, the gate failed %d", fn20.pairs, fn20.worse, fn20.gateFailed)
	t.Logf("+50%%, %d pairs: p95 a regression in %d, the gate failed %d", fn50.pairs, fn50.worse, fn50.gateFailed)
	if fp.pairs < 200 || fp.notJudged == 0 {
		t.Fatalf("%d pairs of one service, %d not judged: the trial lost its cells", fp.pairs, fp.notJudged)
	}
	if limit := binomialLimit(fp.judged(), 0.05, 0.005); fp.gateFailed > limit || fp.changed > limit {
		t.Errorf("one service: the gate failed %d and p95 was called changed %d of %d judged pairs; 5 %% allows %d",
			fp.gateFailed, fp.changed, fp.judged(), limit)
	}
	for _, f := range []struct {
		name          string
		pairs, missed int
	}{
		{"+20% p95 regressions", fn20.pairs, fn20.pairs - fn20.worse},
		{"+20% gate failures", fn20.pairs, fn20.pairs - fn20.gateFailed},
		{"+50% p95 regressions", fn50.pairs, fn50.pairs - fn50.worse},
		{"+50% gate failures", fn50.pairs, fn50.pairs - fn50.gateFailed},
	} {
		if limit := binomialLimit(f.pairs, 0.05, 0.005); f.missed > limit {
			t.Errorf("%s: missed %d of %d; 5 %% allows %d", f.name, f.missed, f.pairs, limit)
		}
	}
}

// checkJudged checks which pairs of one service a cell left not judged:
// all where a run holds under the 200 requests a p95 needs; elsewhere only
// those too noisy to resolve the limit (see unresolved), and none where
// the grid finds the runs decide a +20 % change (60 s at 100/s or more).
func checkJudged(t *testing.T, c cell, g tally) {
	t.Helper()
	few := (c.secs-WarmUp(c.secs))*c.rate < int(batchNeed(P95))
	decided := c.secs >= 60 && c.rate >= 100
	switch {
	case few && g.notJudged != g.pairs:
		t.Errorf("%s: the gate judged %d of %d pairs; want none when a run holds under 200 requests", c, g.pairs-g.notJudged, g.pairs)
	case !few && g.notJudged != g.unresolved:
		t.Errorf("%s: the gate did not judge %d of %d pairs, %d of them for their noise; want only those", c, g.notJudged, g.pairs, g.unresolved)
	case decided && g.notJudged != 0:
		t.Errorf("%s: the gate did not judge %d of %d pairs; want all judged where the runs decide a +20%% change", c, g.notJudged, g.pairs)
	}
}

// TestCompareAccuracyGrid measures every cell of holds of 10, 20, 30 and 60
// s at 20, 50, 100, 200 and 500/s at each shift (-accuracy-pairs per cell
// and shift; 200 take about 9 minutes on 2 cores): the table
// docs/compare.md quotes.
func TestCompareAccuracyGrid(t *testing.T) {
	n := *accuracyPairs
	if n <= 0 {
		t.Skip("-accuracy-pairs 200 measures the grid docs/compare.md quotes")
	}
	var cells []cell
	for _, secs := range []int{10, 20, 30, 60} {
		for _, rate := range []int{20, 50, 100, 200, 500} {
			cells = append(cells, cell{secs, rate})
		}
	}
	got := make([][3]tally, len(cells))
	t.Run("cells", func(t *testing.T) {
		for j, c := range cells {
			t.Run(c.String(), func(t *testing.T) {
				t.Parallel()
				for k, slow := range []float64{1, 1.2, 1.5} {
					var err error
					if got[j][k], err = trials(c, slow, n, 7); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	})
	var b strings.Builder
	b.WriteString("\n| hold | rate | same: not judged | same: gate fails | same: p95 changed | +20 %: p95 worse | +20 %: gate fails | +20 %: not judged | +50 %: p95 worse | +50 %: gate fails | +50 %: not judged |\n")
	for j, c := range cells {
		s, t20, t50 := got[j][0], got[j][1], got[j][2]
		fmt.Fprintf(&b, "| %d s | %d/s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", c.secs, c.rate,
			s.notJudged, s.gateFailed, s.changed, t20.worse, t20.gateFailed, t20.notJudged, t50.worse, t50.gateFailed, t50.notJudged)
	}
	t.Logf("%d pairs a cell and shift:%s", n, b.String())
}
