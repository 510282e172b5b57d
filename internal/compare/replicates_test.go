package compare

import (
	"fmt"
	"strings"
	"testing"
)

// shortRuns makes n runs of one server holding 200 req/s for secs seconds,
// compared over seconds 1 to secs−2 as a test's hold would give (the
// tester's `--rate 200 --duration 9s` runs).
func shortRuns(seed uint64, n, secs int, name string) []Input {
	var out []Input
	for i := range n {
		in := synth{seed: seed + uint64(i), model: "arrival-rate", load: ramp(200, 0, secs, 0)}.input(fmt.Sprintf("%s%d", name, i+1))
		in.Holds = []Hold{{First: 1, Last: secs - 2, Load: 200}}
		out = append(out, in)
	}
	return out
}

// TestFewRunsAsReplicatesAreNotTestable: 2 runs against 1 leave one
// degree of freedom (t = 12.7), which gave [-100.0%, +21,836,805%]; and a
// run whose figure rests on too few requests beyond its percentile cannot
// stand for a rerun. Both say why instead of giving a number, and every
// interval given stays within sense.
func TestFewRunsAsReplicatesAreNotTestable(t *testing.T) {
	tests := []struct {
		name   string
		a, b   int
		secs   int
		untest map[Metric]string // figures that must not be tested, and why
	}{
		{"2 vs 1", 2, 1, 6, map[Metric]string{TPS: "1 degree of freedom", P50: "1 degree of freedom", P95: "1 degree of freedom",
			P99: "1 degree of freedom", ErrorRate: "1 degree of freedom"}},
		{"1 vs 2", 1, 2, 6, map[Metric]string{P95: "1 degree of freedom", P99: "1 degree of freedom"}},
		{"3 vs 1, 800 requests a run", 3, 1, 6, map[Metric]string{P99: "holds 800 requests; a p99 needs 1,000 a run"}},
		{"3 vs 3, 800 requests a run", 3, 3, 6, map[Metric]string{P99: "holds 800 requests; a p99 needs 1,000 a run"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for trial := range uint64(20) {
				a, b := shortRuns(100*trial, tc.a, tc.secs, "a"), shortRuns(100*trial+50, tc.b, tc.secs, "b")
				r, err := CompareGroups([][]Input{a, b}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range r.Rows[0].Lines {
					v := l.Values[1]
					if why, ok := tc.untest[l.Metric]; ok {
						if v.CI != nil || v.Significant || !strings.Contains(v.NotTested, why) {
							t.Fatalf("trial %d %s: %s, not tested %q; want not testable: …%s…", trial, l.Metric, describe(l.Metric, v), v.NotTested, why)
						}
						continue
					}
					if v.CI == nil || l.Metric.isRatio() {
						continue
					}
					// t with 2 degrees of freedom over the runs' spread: wide,
					// never beyond a ten-fold change.
					if lo, hi := v.Bounds(l.Metric); lo < -90 || hi > 900 {
						t.Errorf("trial %d %s: %s: an interval of no use", trial, l.Metric, describe(l.Metric, v))
					}
				}
			}
		})
	}
}

// TestIdenticalShortRunsAsReplicates is the tester's 9-second runs: groups
// of runs of one server must be called changed no more often than the
// stated 5 % in any figure — p99 included, whose runs' figures rest on 16
// requests beyond it, and which two runs agreeing by chance made "changed"
// (-35.3% [-55.5%, -5.8%]).
func TestIdenticalShortRunsAsReplicates(t *testing.T) {
	const trials = 60
	for _, tc := range []struct{ a, b int }{{2, 1}, {3, 1}, {2, 2}, {3, 3}} {
		t.Run(fmt.Sprintf("%d vs %d", tc.a, tc.b), func(t *testing.T) {
			changes, tested := map[Metric]int{}, map[Metric]int{}
			for trial := range uint64(trials) {
				a, b := shortRuns(7000+100*trial, tc.a, 10, "a"), shortRuns(7050+100*trial, tc.b, 10, "b")
				r, err := CompareGroups([][]Input{a, b}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range r.Rows[0].Lines {
					if v := l.Values[1]; v.CI != nil {
						tested[l.Metric]++
						if v.Significant {
							changes[l.Metric]++
						}
					}
				}
			}
			limit := binomialLimit(trials, 0.05, 0.005)
			for m := TPS; m < numMetrics; m++ {
				t.Logf("%s: tested in %d, called changed in %d of %d trials (at most %d allowed)", m, tested[m], changes[m], trials, limit)
				if changes[m] > limit {
					t.Errorf("%s: called changed in %d of %d trials of one server; the stated 5%% allows %d", m, changes[m], trials, limit)
				}
				if tc.a+tc.b == 3 && tested[m] > 0 {
					t.Errorf("%s: tested %d times with 2 runs against 1 (one degree of freedom)", m, tested[m])
				}
			}
		})
	}
}

// TestReplicateIntervalsStayWithinWhatTheFigureCanBe: replicate runs
// (A1 A2 vs B1 B2) printed an error-rate interval of [−104.54pp, …]:
// Welch's t over two runs a side is wide, but two rates in [0, 100] %
// differ by at most 100 points either way, and a latency or a rate
// cannot fall by more than 100 %.
func TestReplicateIntervalsStayWithinWhatTheFigureCanBe(t *testing.T) {
	run := func(seed uint64, failed float64) Input {
		in, _ := flat{seed: seed, secs: 12, rate: 200, ms: 2, jitter: 0.3, failed: failed}.input("r")
		return in
	}
	r, err := CompareGroups([][]Input{{run(1, 0.9), run(2, 0.99)}, {run(3, 0), run(4, 0.1)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Rows[0].Lines {
		v := l.Values[1]
		if v.CI == nil {
			continue
		}
		lo, hi := v.Bounds(l.Metric)
		switch {
		case l.Metric.isRatio() && (lo < -1 || hi > 1):
			t.Errorf("%s: %s reaches past ±100pp", l.Metric, describe(l.Metric, v))
		case !l.Metric.isRatio() && lo <= -100:
			t.Errorf("%s: %s falls by 100%% or more", l.Metric, describe(l.Metric, v))
		}
	}
	if v := line(t, r, allEndpoints, ErrorRate).Values[1]; v.CI == nil || v.CI.Lo != -1 {
		t.Errorf("errors: %s, want an interval cut at -100pp", describe(ErrorRate, v))
	}
}

// TestReplicatesTooFewForALaggingHost: 2 runs against 2 whose baseline's
// generator lagged 40 ms. Their interval is too wide to judge whatever the
// host did, so the reason names the data it would take first (it once
// named only the lag, and "run both on a quiet host" would not have
// resolved it), then the lag.
func TestReplicatesTooFewForALaggingHost(t *testing.T) {
	for _, tc := range []struct {
		name  string
		slow  float64 // the second run's service time over the first's, in B
		wants []string
	}{
		{"within the limit", 0.1, []string{"is within +10%, but its interval reaches", "runs a side) would resolve it",
			"; besides, the baseline's load generator lagged far more"}},
		{"past the limit", 0.3, []string{"goes past +10%, but its interval reaches back within it and the baseline's load generator lagged",
			"its interval is too wide to judge there too: about", "runs a side) would narrow it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a, b []Input
			for i := range uint64(2) {
				x, _ := flat{seed: 10 + i, secs: 10, rate: 50, ms: 2.35, jitter: 1, lagMs: 40}.input("a")
				y, _ := flat{seed: 20 + i, secs: 10, rate: 50, ms: 2.35 * (1 + float64(i)*tc.slow), jitter: 1, lagMs: 1}.input("b")
				a, b = append(a, x), append(b, y)
			}
			r, err := CompareGroups([][]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := ParseGate("p(95) +10%")
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check([]Gate{g})[0]
			if res.Failed || !res.NotJudged {
				t.Errorf("failed=%v not judged=%v, want not judged: %s", res.Failed, res.NotJudged, res.Reason)
			}
			for _, w := range tc.wants {
				if !strings.Contains(res.Reason, w) {
					t.Errorf("reason %q lacks %q", res.Reason, w)
				}
			}
		})
	}
}
