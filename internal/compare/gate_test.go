package compare

import (
	"strings"
	"testing"
)

func TestParseGate(t *testing.T) {
	tests := []struct {
		expr    string
		want    Gate // Expr is not compared
		wantErr string
	}{
		{expr: "p(95) +10%", want: Gate{Metric: P95, Sign: 1, Amount: 10, Relative: true}},
		{expr: "p(99)+50ms", want: Gate{Metric: P99, Sign: 1, Amount: 50}},
		{expr: "med +0.5s", want: Gate{Metric: P50, Sign: 1, Amount: 500}},
		{expr: "p(50) +250us", want: Gate{Metric: P50, Sign: 1, Amount: 0.25}},
		// A change without a unit was read as ms: the field trial's 'p(95) +10' meant +10%.
		{expr: "p(95) +10", wantErr: "the change 10 has no unit: write 10% for a relative change or 10ms for a time"},
		{expr: "p(99) +2.5", wantErr: "the change 2.5 has no unit: write 2.5% for a relative change or 2.5ms for a time"},
		{expr: "req/s -5", wantErr: "the change 5 has no unit: write 5% for a relative change or 5/s for a rate"},
		{expr: "req/s -5 req/s", want: Gate{Metric: Succeeded, Sign: -1, Amount: 5}},
		{expr: "req/s -5%", want: Gate{Metric: Succeeded, Sign: -1, Amount: 5, Relative: true}},
		{expr: "tps -100/s", want: Gate{Metric: Succeeded, Sign: -1, Amount: 100}},
		{expr: "p95 +10%", want: Gate{Metric: P95, Sign: 1, Amount: 10, Relative: true}},
		{expr: "errors +0.5pp", want: Gate{Metric: ErrorRate, Sign: 1, Amount: 0.005}},
		{expr: "http_req_failed +0%", want: Gate{Metric: ErrorRate, Sign: 1, Amount: 0, Relative: true}},
		{expr: "checks -1pp", want: Gate{Metric: CheckRate, Sign: -1, Amount: 0.01}},
		{expr: `p(95){endpoint:"GET /products/{id}"} +10%`, want: Gate{Metric: P95, Endpoint: "GET /products/{id}", Sign: 1, Amount: 10, Relative: true}},
		{expr: `p(95){endpoint:'POST /cart'} +10%`, want: Gate{Metric: P95, Endpoint: "POST /cart", Sign: 1, Amount: 10, Relative: true}},
		{expr: "p(90) +10%", wantErr: `unknown metric "p(90)"`},
		{expr: "avg +10%", wantErr: `unknown metric "avg"`},
		{expr: "p(95) 10%", wantErr: "expected + (fail on a rise) or - (fail on a fall)"},
		{expr: "p(95) +", wantErr: "expected the allowed change as a number"},
		{expr: "p(95) +10 parsecs", wantErr: `unit "parsecs" is not % or a time`},
		{expr: "errors +1", wantErr: "percentage points (pp)"},
		{expr: "req/s -5ms", wantErr: `unit "ms" is not % or req/s`},
		{expr: `p(95){scenario:"x"} +1%`, wantErr: "the only filter is {endpoint"},
		{expr: `p(95){endpoint:"x" +1%`, wantErr: "no closing }"},
		{expr: `p(95){endpoint:"x +1%`, wantErr: "quote is not closed"},
		{expr: `p(95){endpoint:GET /x} +1%`, want: Gate{Metric: P95, Endpoint: "GET /x", Sign: 1, Amount: 1, Relative: true}},
		{expr: "", wantErr: "unknown metric"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			g, err := ParseGate(tc.expr)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g.Expr = ""
			if g != tc.want {
				t.Fatalf("got %+v, want %+v", g, tc.want)
			}
		})
	}
}

func TestParseGatesReportsEveryBadGate(t *testing.T) {
	_, err := ParseGates([]string{"p(95) +10%", "avg +1%", "errors +1"})
	if err == nil || !strings.Contains(err.Error(), `"avg +1%"`) || !strings.Contains(err.Error(), `"errors +1"`) {
		t.Fatalf("error %v, want both bad gates named", err)
	}
}

// TestGatesOnASlowerServer is the CI gate: a 30 % slower server fails
// 'p(95) +10%' and passes looser or unrelated gates.
func TestGatesOnASlowerServer(t *testing.T) {
	base := synth{seed: 1, model: "arrival-rate", load: hold100}.input("baseline")
	same := synth{seed: 2, model: "arrival-rate", load: hold100}.input("same")
	slower := synth{seed: 3, model: "arrival-rate", load: hold100, slow: 1.3}.input("slower")
	r, err := Compare([]Input{base, same, slower}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		gate       string
		failedSame bool
		failedSlow bool
		reason     string // in the slower run's result
	}{
		{"p(95) +10%", false, true, "goes past +10%"},
		{"p(95) +50%", false, false, "is within +50%"},
		{`p(95){endpoint:"POST /cart"} +2ms`, false, true, "goes past +2ms"},
		{"p(50) +1000ms", false, false, "is within +1000ms"},
		{"req/s -5%", false, false, "no change"},
		{"errors +0.1pp", false, false, "no change"}, // no request failed in any run
		{`p(95){endpoint:"GET /nowhere"} +10%`, true, true, `no endpoint "GET /nowhere"`},
	}
	for _, tc := range tests {
		t.Run(tc.gate, func(t *testing.T) {
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check([]Gate{g})
			if len(res) != 2 || res[0].Run != "same" || res[1].Run != "slower" {
				t.Fatalf("results %+v, want one per compared run", res)
			}
			if res[0].Failed != tc.failedSame || res[1].Failed != tc.failedSlow {
				t.Errorf("failed same=%v slower=%v, want %v %v (%s; %s)", res[0].Failed, res[1].Failed, tc.failedSame, tc.failedSlow, res[0].Reason, res[1].Reason)
			}
			if !strings.Contains(res[1].Reason, tc.reason) {
				t.Errorf("reason %q, want %q", res[1].Reason, tc.reason)
			}
			if AnyFailed(res, false) != (tc.failedSame || tc.failedSlow) || res[0].NotJudged || res[1].NotJudged {
				t.Errorf("AnyFailed disagrees with the results")
			}
		})
	}
}

// TestAGateOnAnUntestableChangeIsNotJudged: two 6-second runs (4 compared
// seconds) cannot test p95, which the table says; a gate on it says it was
// not judged, why, and how long a hold would let it judge — and fails
// (a gate that passes what it cannot test is no gate) unless not judged
// gates are allowed.
func TestAGateOnAnUntestableChangeIsNotJudged(t *testing.T) {
	base := synth{seed: 1, model: "arrival-rate", load: ramp(200, 0, 6, 0)}.input("a")
	slower := synth{seed: 2, model: "arrival-rate", load: ramp(200, 0, 6, 0), slow: 2}.input("b")
	base.Holds = []Hold{{First: 1, Last: 4, Load: 200}}
	slower.Holds = base.Holds
	r, err := Compare([]Input{base, slower}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := line(t, r, allEndpoints, P95).Values[1]
	if v.CI != nil || v.NotTested == "" || *v.DeltaPct < 50 {
		t.Fatalf("p95 %s, not tested %q; want a rise of 2× that is not testable", describe(P95, v), v.NotTested)
	}
	for _, tc := range []struct {
		gate      string
		failed    bool
		notJudged bool
		reason    []string
	}{
		{"p(95) +10%", false, true, []string{"not judged: p95 +", "goes past +10%", "not testable: " + v.NotTested,
			"a hold of 6 seconds or more at this load (5 compared seconds a run) would let it judge"}},
		{"p(95) +500%", false, true, []string{"not judged", "is within +500%", "not testable: "}},
		{`p(95){endpoint:"GET /nowhere"} +10%`, true, false, []string{`no endpoint "GET /nowhere"`}},
	} {
		t.Run(tc.gate, func(t *testing.T) {
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check([]Gate{g})
			if len(res) != 1 || res[0].Failed != tc.failed || res[0].NotJudged != tc.notJudged {
				t.Fatalf("results %+v, want failed=%v not judged=%v", res, tc.failed, tc.notJudged)
			}
			for _, want := range tc.reason {
				if !strings.Contains(res[0].Reason, want) {
					t.Errorf("reason %q lacks %q", res[0].Reason, want)
				}
			}
			if AnyFailed(res, true) != tc.failed || AnyFailed(res, false) != (tc.failed || tc.notJudged) {
				t.Errorf("AnyFailed(allowing not judged) %v, (by default) %v", AnyFailed(res, true), AnyFailed(res, false))
			}
		})
	}
}
