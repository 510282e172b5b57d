package compare

import (
	"strings"
	"testing"
)

// stolenShare gives every second of a run the same share of CPU steal.
func stolenShare(in Input, share float64, secs int) Input {
	in.HostSteal = map[int]float64{}
	for sec := range secs {
		in.HostSteal[sec] = share
	}
	return in
}

// TestStolenCPUIsNotTheSystem: seen in the e2e trial of three runs of one
// 5 ms server, the third run's host lost 7.9 % of its CPU to the hypervisor
// (0 % in the first) and its p95 rose 61 % with its whole interval past
// the gate. A latency change toward failing that the stolen side's pauses
// could have made is not judged, interval or not; a change the pauses
// could have hidden is not judged either; steal on both sides, under the
// gap, or a gate on throughput is judged as before.
func TestStolenCPUIsNotTheSystem(t *testing.T) {
	same := flat{seed: 1, secs: 12, rate: 200, ms: 5, jitter: 0.2}
	slower := flat{seed: 2, secs: 12, rate: 200, ms: 9, jitter: 0.2}
	tests := []struct {
		name              string
		a, b              flat
		stealA, stealB    float64
		gate              string
		failed, notJudged bool
		reason            string
	}{
		{"the run stolen from, a rise past the limit", same, slower, 0, 0.079, "p(95) +10%", false, true,
			"its host lost 7.9% of its CPU time to other machines against 0% in the baseline's"},
		{"the baseline stolen from, a rise past the limit", same, slower, 0.079, 0, "p(95) +10%", true, false, "goes past +10%"},
		{"the baseline stolen from, within the limit", same, flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2}, 0.079, 0, "p(95) +10%", false, true,
			"the pauses in the baseline's latencies can hide a change"},
		{"the run stolen from, within the limit", same, flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2}, 0, 0.079, "p(95) +10%", false, false, "is within +10%"},
		{"both stolen from alike", same, slower, 0.06, 0.079, "p(95) +10%", true, false, "goes past +10%"},
		{"a gap under 2 points", same, slower, 0, 0.015, "p(95) +10%", true, false, "goes past +10%"},
		{"not recorded", same, slower, -1, -1, "p(95) +10%", true, false, "goes past +10%"},
		{"a fall gate, the baseline stolen from", slower, same, 0.079, 0, "p(95) -10%", false, true, "the hypervisor's pauses may have made the change"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := tc.a.input("a")
			b, _ := tc.b.input("b")
			if tc.stealA >= 0 {
				a, b = stolenShare(a, tc.stealA, tc.a.secs), stolenShare(b, tc.stealB, tc.b.secs)
			}
			res := gateOn(t, a, b, tc.gate)
			if res.Failed != tc.failed || res.NotJudged != tc.notJudged || !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("failed=%v not judged=%v %q; want %v %v and %q", res.Failed, res.NotJudged, res.Reason, tc.failed, tc.notJudged, tc.reason)
			}
		})
	}
}

// TestStolenCPUIsNoted: the table's run note names the steal gap.
func TestStolenCPUIsNoted(t *testing.T) {
	a, _ := flat{seed: 1, secs: 12, rate: 200, ms: 5, jitter: 0.2}.input("a")
	b, _ := flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2}.input("b")
	r, err := Compare([]Input{stolenShare(a, 0.001, 12), stolenShare(b, 0.05, 12)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Runs[1].Note, "its host lost 5% of its CPU time to other machines") {
		t.Errorf("note %q does not name the steal", r.Runs[1].Note)
	}
	if strings.Contains(r.Runs[0].Note, "CPU steal") {
		t.Errorf("the baseline's note names steal: %q", r.Runs[0].Note)
	}
}
