package compare

import (
	"testing"
)

// TestSuccessfulRateBesideTheRate: the field trial's case 3 took its 5xx
// from 65 % to none at the same offered rate, and compare said "req/s ~ no
// significant change": failed requests count in req/s, so the successful
// requests per second get their own line, with the same statistics.
func TestSuccessfulRateBesideTheRate(t *testing.T) {
	load := ramp(100, 5, 60, 3)
	tests := []struct {
		name             string
		errA, errB       float64
		wantTPS, wantSuc string // verdicts of B against A
	}{
		{name: "case 3: 65% failed, then none", errA: 0.65, errB: 0, wantTPS: "~", wantSuc: "better"},
		{name: "none failed, then 65%", errA: 0, errB: 0.65, wantTPS: "~", wantSuc: "worse"},
		{name: "the same 1%", errA: 0.01, errB: 0.01, wantTPS: "~", wantSuc: "~"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := synth{seed: 900 + 2*uint64(i), model: "arrival-rate", load: load, errProb: tt.errA}.input("a")
			b := synth{seed: 901 + 2*uint64(i), model: "arrival-rate", load: load, errProb: tt.errB}.input("b")
			r, err := Compare([]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tps, suc, errs := line(t, r, allEndpoints, TPS), line(t, r, allEndpoints, Succeeded), line(t, r, allEndpoints, ErrorRate)
			if suc.Metric.String() != "successful req/s" || suc.Metric != TPS+1 {
				t.Fatalf("line %d is %q, want successful req/s right after req/s", Succeeded, suc.Metric)
			}
			for g := range 2 {
				want := tps.Values[g].Value * (1 - errs.Values[g].Value) // req/s × the share that did not fail
				if got := suc.Values[g].Value; !suc.Values[g].Has || got < want-1e-9*want || got > want+1e-9*want {
					t.Errorf("group %d: successful req/s %v, want req/s %v × (1 − errors %v) = %v",
						g, got, tps.Values[g].Value, errs.Values[g].Value, want)
				}
			}
			if v := tps.Values[1]; v.Verdict != tt.wantTPS {
				t.Errorf("req/s: %s, want verdict %q", describe(TPS, v), tt.wantTPS)
			}
			if v := suc.Values[1]; v.Verdict != tt.wantSuc || v.CI == nil {
				t.Errorf("successful req/s: %s, want verdict %q with an interval", describe(Succeeded, v), tt.wantSuc)
			}
		})
	}
}
