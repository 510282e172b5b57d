package compare

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// tailRun is a run of the s35 trial's shape: a fast service (a lognormal
// around ms, σ sigma) with a bumpy tail (now and then a second whose
// share of requests waits pauseMs more), addMs added to every request,
// and optionally one second whose every request takes stallMs; a hold of
// secs seconds at rate/s, compared from WarmUp(secs).
type tailRun struct {
	seed              uint64
	secs, rate        int
	ms, sigma         float64
	addMs             float64
	stall             int // 1 + the stalled second; 0 for none
	stallMs, pauseMs  float64
	pauseShare, pause float64 // a second's chance of a pause, and the share it stalls
}

func (tr tailRun) input(name string) Input {
	layout := sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /ok", Method: "GET"}},
	}
	rng := newRand(tr.seed)
	run := metrics.NewRun(layout)
	var snaps []*metrics.Snapshot
	for sec := 0; sec <= tr.secs; sec++ {
		share := 0.0
		if rng.Float64() < tr.pause {
			share = tr.pauseShare
		}
		snap := metrics.NewSnapshot(sec, layout)
		es := &snap.Endpoints[0]
		es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
		for range tr.rate {
			ms := tr.ms * math.Exp(tr.sigma*rng.NormFloat64())
			if rng.Float64() < share {
				ms += tr.pauseMs
			}
			ms += tr.addMs
			if sec == tr.stall-1 {
				ms = tr.stallMs * math.Exp(0.05*rng.NormFloat64())
			}
			es.Duration.Record(time.Duration(ms * float64(time.Millisecond)))
		}
		es.Requests = int64(tr.rate)
		snap.Scenarios[0].Iterations = int64(tr.rate)
		run.Add(snap)
		snaps = append(snaps, snap)
	}
	return Input{Name: name, Run: run, Holds: []Hold{{First: WarmUp(tr.secs), Last: tr.secs - 1, Load: float64(tr.rate)}},
		Snapshots: func(fn func(*metrics.Snapshot) error) error {
			for _, sn := range snaps {
				if err := fn(sn); err != nil {
					return err
				}
			}
			return nil
		}}
}

// trialA is the trial's baseline: 13 s at 100/s of a 0.46 ms service
// whose p99 is a few ms, some seconds' tails slower still.
func trialA(seed uint64) tailRun {
	return tailRun{seed: seed, secs: 13, rate: 100, ms: 0.46, sigma: 1, pauseMs: 4, pauseShare: 0.05, pause: 0.2}
}

// trialB is the trial's B: the same service 8 ms slower on every request,
// one of its seconds (stall > 0) stalled at 600 ms.
func trialB(seed uint64, stall int) tailRun {
	b := trialA(seed)
	b.addMs, b.stall, b.stallMs = 8, stall, 600
	return b
}

// TestRanksDecideTheTrialsRegression: the s35 trial's gates passed a p99
// 75× slower with exit 0, as one stalled second of B widened B's own
// interval until its regression read "not significant", and replicates
// read p95 +1,069 % [-99.9 %, +13,510,934 %]. With every request of B
// slower than A's p99, the ranks decide single runs: each gate fails, and
// no interval reaches below what the runs' requests allow. Replicates,
// whose runs may differ as a whole, keep Welch's interval within the
// requests' range, and a gate on it is not judged (which fails) instead
// of passing. Each case passed its gates before.
func TestRanksDecideTheTrialsRegression(t *testing.T) {
	for _, tc := range []struct {
		name      string
		a, b      []tailRun
		gates     []string
		notJudged bool    // the gates are not judged rather than failed
		minLo     float64 // percent: the least low end of the p95 and p99 intervals
	}{
		{"single runs, B's third second stalled", []tailRun{trialA(1)}, []tailRun{trialB(2, 4)}, []string{"p(99) +10%", "p(95) +10%"}, false, 0},
		{"single runs, B's ninth second stalled", []tailRun{trialA(3)}, []tailRun{trialB(4, 10)}, []string{"p(99) +10%", "p(95) +10%"}, false, 0},
		{"3 runs against 2, one of B's stalled", []tailRun{trialA(5), trialA(7), trialA(9)}, []tailRun{trialB(6, 0), trialB(8, 4)}, []string{"p(95) +10%"}, true, -60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compareGroups(t, tc.a, tc.b)
			gates, err := ParseGates(tc.gates)
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range r.Check(gates) {
				if res.Failed == tc.notJudged || res.NotJudged != tc.notJudged {
					t.Errorf("%s: failed %v, not judged %v: %s; want not judged %v", res.Gate.Expr, res.Failed, res.NotJudged, res.Reason, tc.notJudged)
				}
			}
			for _, m := range []Metric{P95, P99} {
				v := line(t, r, allEndpoints, m).Values[1]
				if v.CIPct == nil {
					t.Fatalf("%s: no interval", describe(m, v))
				}
				if lo := v.CIPct.Lo; lo < tc.minLo {
					t.Errorf("%s: interval low end %.4g %%, want %.3g %% or more: B's every request is slower than A's p99", describe(m, v), lo, tc.minLo)
				}
			}
		})
	}
}

// TestBsStallNeverHidesItsRegression: one second of B stalled never makes
// B's regression less sure than it is without the stall. Every pair whose
// gates fail without the stall fails with it.
func TestBsStallNeverHidesItsRegression(t *testing.T) {
	gates, err := ParseGates([]string{"p(95) +10%", "p(99) +10%"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(6) {
		a := []tailRun{trialA(100 + 2*i)}
		calm := compareGroups(t, a, []tailRun{trialB(101+2*i, 0)}).Check(gates)
		stalled := compareGroups(t, a, []tailRun{trialB(101+2*i, 2+int(i%10))}).Check(gates)
		for k := range gates {
			if calm[k].Failed && !stalled[k].Failed {
				t.Errorf("pair %d, %s: failed without B's stall (%s), passed with it: %s", i, gates[k].Expr, calm[k].Reason, stalled[k].Reason)
			}
		}
	}
}

// TestRanksKeepOneServiceUnchanged: the trial's service against itself,
// B with a stalled second or without, is never a regression the ranks
// decide; a change the ranks see is at most the rate the table states.
func TestRanksKeepOneServiceUnchanged(t *testing.T) {
	gate, err := ParseGate("p(95) +10%")
	if err != nil {
		t.Fatal(err)
	}
	const pairs = 40
	failed := 0
	for i := range uint64(pairs) {
		b := trialA(1001 + 2*i)
		if i%2 == 1 {
			b.stall, b.stallMs = 2+int(i%10), 600
		}
		r := compareGroups(t, []tailRun{trialA(1000 + 2*i)}, []tailRun{b})
		if res := r.Check([]Gate{gate})[0]; res.Failed && !res.NotJudged {
			failed++
		}
	}
	if limit := binomialLimit(pairs, 0.05, 0.005); failed > limit {
		t.Errorf("one service: the gate failed %d of %d pairs; 5 %% allows %d", failed, pairs, limit)
	}
}

// compareGroups compares runs a (the baseline) with runs b.
func compareGroups(t *testing.T, a, b []tailRun) *Report {
	t.Helper()
	var groups [][]Input
	for k, side := range [][]tailRun{a, b} {
		var g []Input
		for j, tr := range side {
			g = append(g, tr.input(fmt.Sprintf("%c%d", 'A'+k, j+1)))
		}
		groups = append(groups, g)
	}
	r, err := CompareGroups(groups, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
