package compare

import (
	"strings"
	"testing"
)

// TestALargeShiftOnAShortRunIsJudged is issue 20's gate that passed what it
// could not test: a target 4× slower (10 → 40 ms) over 8 s at 50 req/s
// (7 compared seconds, 350 requests a run) read p50 +277 % and significant,
// yet 'p(95) +10%' was "not judged" and exited 0: three stretches of 200
// requests were asked of runs that hold 350. Every request of B is slower
// than every one of A; the tail test sees it. A p99, with 3.5 requests
// beyond it a run, is truly not judged: the gate fails, saying how long a
// hold would let it judge, unless not judged gates are allowed.
func TestALargeShiftOnAShortRunIsJudged(t *testing.T) {
	a, _ := flat{seed: 1, secs: 9, rate: 50, ms: 10, jitter: 0.2}.input("a")
	same, _ := flat{seed: 2, secs: 9, rate: 50, ms: 10, jitter: 0.2}.input("same")
	slow, _ := flat{seed: 3, secs: 9, rate: 50, ms: 40, jitter: 0.2}.input("slow")
	r, err := Compare([]Input{a, same, slow}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := line(t, r, allEndpoints, P95).Values[2]; v.Verdict != "worse" {
		t.Errorf("p95 of a 4× slower server: %s (not tested: %q), want a significant regression", describe(P95, v), v.NotTested)
	}
	for _, tc := range []struct {
		gate              string
		run               int // 0: same, 1: slow
		failed, notJudged bool
		reason            []string
	}{
		{"p(95) +10%", 1, true, false, []string{"p95 +", "goes past +10%"}},
		{"p(50) +10%", 1, true, false, []string{"goes past +10%"}},
		{"p(95) +10%", 0, false, false, []string{"p95"}},
		{"p(99) +10%", 1, false, true, []string{"not judged", "needs 1,000 requests a run (10 beyond its p99); one holds 350",
			"a hold of 21 seconds or more at this load (20 compared seconds a run) would let it judge"}},
	} {
		t.Run(tc.gate, func(t *testing.T) {
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check([]Gate{g})[tc.run]
			if res.Failed != tc.failed || res.NotJudged != tc.notJudged {
				t.Errorf("failed=%v not judged=%v, want %v %v: %s", res.Failed, res.NotJudged, tc.failed, tc.notJudged, res.Reason)
			}
			for _, want := range tc.reason {
				if !strings.Contains(res.Reason, want) {
					t.Errorf("reason %q lacks %q", res.Reason, want)
				}
			}
			all := []GateResult{res}
			if AnyFailed(all, false) != (tc.failed || tc.notJudged) || AnyFailed(all, true) != tc.failed {
				t.Errorf("AnyFailed: by default %v, allowing not judged %v", AnyFailed(all, false), AnyFailed(all, true))
			}
		})
	}
}

// TestHoldFor: the hold whose compared seconds, its warm-up left out, are
// at least n (a hold of d seconds compares WarmUp(d) … d − 1).
func TestHoldFor(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{5, 6}, {7, 8}, {20, 21}, {29, 31}, {190, 200}, {500, 510}} {
		if got := HoldFor(tc.n); got != tc.want || got-WarmUp(got) < tc.n {
			t.Errorf("HoldFor(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
