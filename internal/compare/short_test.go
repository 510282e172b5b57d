package compare

import (
	"testing"
)

// TestShortRunsOfOneServer is the new user's trial: single runs of a short
// hold (12 s at 100 req/s, as `loadlens run URL --duration 12s` makes) of
// one server, some with one stalled second, must be called changed no more
// often than the stated rate; a server 2× slower, or 50 ms slower on
// every request, must be called a regression.
func TestShortRunsOfOneServer(t *testing.T) {
	load := ramp(100, 0, 12, 0)
	for _, tc := range []struct {
		name          string
		pairs         int
		b             func(i uint64) synth
		wantCaught    bool
		maxChangeRate float64 // the rate of pairs a figure may be called changed in
	}{
		{"identical", 200, func(i uint64) synth { return synth{seed: 9001 + 2*i, load: load} }, false, 0.05},
		{"one stalled second in B", 200, func(i uint64) synth {
			return synth{seed: 9001 + 2*i, load: load, stall: 2 + int(i%11)}
		}, false, 0.05},
		{"2× slower", 20, func(i uint64) synth { return synth{seed: 9001 + 2*i, load: load, slow: 2} }, true, 0},
		{"+50 ms every request", 20, func(i uint64) synth { return synth{seed: 9001 + 2*i, load: load, addMs: 50} }, true, 0},
		{"+50 ms, the generator lagging 3 ms", 20, func(i uint64) synth {
			return synth{seed: 9001 + 2*i, load: load, addMs: 50, lag: 3}
		}, true, 0},
		// A shift within how much more one generator waited than the
		// other may be the host's: never called a change.
		{"+1 ms, B's generator lagging 3 ms more", 20, func(i uint64) synth {
			return synth{seed: 9001 + 2*i, load: load, addMs: 1, lag: 3.2}
		}, false, 0},
		// A wait both generators share cancels: one server stays unchanged
		// at the stated rate, and a 2× slower one is a regression (the
		// larger lag as the floor once passed it as noise).
		// (the trial on a busy laptop: a 5 ms server, both generators
		// lagging about 6 ms)
		{"identical 5 ms, both lagging 6 ms", 200, func(i uint64) synth {
			return synth{seed: 9001 + 2*i, load: load, lag: 6, medians: []float64{5}}
		}, false, 0.05},
		{"2× slower 5 ms, both lagging 6 ms", 20, func(i uint64) synth {
			return synth{seed: 9001 + 2*i, load: load, slow: 2, lag: 6, medians: []float64{5}}
		}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changes, missedP95 := map[Metric]int{}, 0
			for i := range uint64(tc.pairs) {
				sb := tc.b(i)
				lagA := sb.lag
				if sb.lag == 3.2 { // B lags 3 ms more than A
					lagA = 0.2
				}
				a := synth{seed: 9000 + 2*i, model: "arrival-rate", load: load, lag: lagA, medians: sb.medians}.input("a")
				sb.model = "arrival-rate"
				r, err := Compare([]Input{a, sb.input("b")}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range r.Rows[0].Lines {
					if l.Values[1].Significant {
						changes[l.Metric]++
					}
				}
				if !tc.wantCaught {
					continue
				}
				if v := line(t, r, allEndpoints, P50).Values[1]; v.Verdict != "worse" {
					t.Errorf("pair %d p50: %s, want a significant regression", i, describe(P50, v))
				}
				if v := line(t, r, allEndpoints, P95).Values[1]; v.Verdict != "worse" {
					missedP95++
					t.Logf("pair %d p95: %s", i, describe(P95, v))
				}
			}
			if tc.wantCaught {
				// A p95 over 3 stretches of 400 requests is held back when a
				// pause second (2 % of seconds) lands in one: allow 2 of 20.
				allowed := 2
				if sb := tc.b(0); sb.medians != nil {
					allowed = 3 // the pause seconds weigh more against a 5 ms service
				}
				if missedP95 > allowed {
					t.Errorf("p95 called a regression in only %d of %d pairs", tc.pairs-missedP95, tc.pairs)
				}
				return
			}
			limit := 0
			if tc.maxChangeRate > 0 {
				limit = binomialLimit(tc.pairs, tc.maxChangeRate, 0.005)
			}
			for m := TPS; m < numMetrics; m++ {
				t.Logf("%s: %d of %d pairs called changed (at most %d allowed)", m, changes[m], tc.pairs, limit)
				if changes[m] > limit {
					t.Errorf("%s: %d of %d pairs of one server called changed; the stated %.0f%% allows at most %d",
						m, changes[m], tc.pairs, 100*tc.maxChangeRate, limit)
				}
			}
		})
	}
}
