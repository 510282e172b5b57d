package compare

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestLagFloorFollowsThePercentile: the floor a generator's lag sets under
// a latency change is the gap between the runs' lag at that latency's own
// level. The trial's pair: A lagged 0.13 / 1.3 / 4.13 ms at p50 / p95 /
// p99, B 0.2 / 28 / 47 ms; the p99 gap (43 ms) was the floor of every
// percentile and held p50 +61 % (21.2 → 34.2 ms) back as "< noise 202 %".
// A wait makes the run that lagged more slower, never faster, but the floor
// holds both ways: the gap also stands for how far two runs' tails move
// apart by themselves (one-sided, three runs of one 5 ms server read p99
// -25 % and +69 % "changed" on a quiet host).
func TestLagFloorFollowsThePercentile(t *testing.T) {
	ms := func(x float64) float64 { return x * float64(time.Millisecond) }
	trialA := lagLevels{ms(0.13), ms(1.3), ms(4.13)}
	trialB := lagLevels{ms(0.2), ms(28), ms(47)}
	none := lagLevels{-1, -1, -1}
	tests := []struct {
		name   string
		a, b   lagLevels
		m      Metric
		baseMs float64
		rise   bool    // B's figure above A's
		want   float64 // percent
	}{
		{"the trial's p50", trialA, trialB, P50, 21.2, true, 100 * 0.07 / 21.2},
		{"the trial's p95", trialA, trialB, P95, 25.2, true, 100 * 26.7 / 25.2},
		{"the trial's p99", trialA, trialB, P99, 33.8, true, 100 * 42.87 / 33.8},
		{"the baseline lagging more, B faster", trialB, trialA, P50, 21.2, false, 100 * 0.07 / 21.2},
		{"a session's p50 reads the p50", trialA, trialB, FirstMsgP50, 21.2, true, 100 * 0.07 / 21.2},
		{"one run without lag: the other's stands", none, trialB, P50, 20, false, 100 * 0.2 / 20},
		{"neither lagged", none, none, P99, 20, true, 0},
		{"no baseline figure", trialA, trialB, P50, 0, true, 0},
		{"the baseline lagging more, B slower: both ways", trialB, trialA, P99, 33.8, true, 100 * 42.87 / 33.8},
		{"B lagging more, B faster: both ways", trialA, trialB, P95, 25.2, false, 100 * 26.7 / 25.2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := &runView{lag: &tc.a}, &runView{lag: &tc.b}
			if got := lagFloor(a, b, tc.m, tc.baseMs); math.Abs(got-tc.want) > 1e-9*max(1, tc.want) {
				t.Errorf("lagFloor = %.4g %%, want %.4g %%", got, tc.want)
			}
		})
	}
}

// TestATailLagIsNoMedianFloor runs the table on it: B's generator late by
// 40 ms in 2 % of its starts (its p99) and its median 2.35 → 5 ms is a
// change the table calls worse; late on every start, the same change is
// held back as within the runs' own noise, and so it is when the baseline
// was late on every start (the floor holds both ways).
func TestATailLagIsNoMedianFloor(t *testing.T) {
	quiet := flat{seed: 1, secs: 12, rate: 200, ms: 2.35, jitter: 0.2, lagMs: 1}
	late := func(f flat, share float64) flat { f.lagMs, f.lagShare = 40, share; return f }
	slower := flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2, lagMs: 1}
	for _, tc := range []struct {
		name      string
		a, b      flat
		verdict   string
		heldBack  bool
		floorOver float64 // percent the p50's floor must exceed
		floorMax  float64
	}{
		{"B late in its tail", quiet, late(slower, 0.02), "worse", false, 0, 50},
		{"B late on every start", quiet, late(slower, 0), "~", true, 1000, math.Inf(1)},
		{"the baseline late on every start", late(quiet, 0), slower, "~", true, 1000, math.Inf(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := tc.a.input("a")
			b, _ := tc.b.input("b")
			r, err := Compare([]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := line(t, r, allEndpoints, P50).Values[1]
			if v.Verdict != tc.verdict || v.HeldBackByNoise(P50) != tc.heldBack || v.MinEffect <= tc.floorOver || v.MinEffect > tc.floorMax {
				t.Errorf("p50 %s: verdict %q, held back %v, floor %.3g %%; want %q, %v, in (%.3g, %.3g] %%",
					describe(P50, v), v.Verdict, v.HeldBackByNoise(P50), v.MinEffect, tc.verdict, tc.heldBack, tc.floorOver, tc.floorMax)
			}
			if n := r.Runs[1].Note; !strings.Contains(n, "scheduler lag p99 40.0ms vs 1.00ms") {
				t.Errorf("B's note %q does not name the busier generator", n)
			}
		})
	}
}

// TestGateNeverContradictsTheTable: a latency gate fails only a change the
// table (and so the HTML and the Markdown, which render the same Value)
// calls worse; the trial's 'p(50) +10%' failed a p50 the table showed as
// "~ [+52.5%, +71.6%] < noise 202%".
func TestGateNeverContradictsTheTable(t *testing.T) {
	quiet := flat{seed: 1, secs: 12, rate: 200, ms: 2.35, jitter: 0.2, lagMs: 1}
	pairs := []struct {
		name string
		a, b flat
	}{
		{"slower, quiet", quiet, flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2, lagMs: 1}},
		{"slower, lagging in its tail", quiet, flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2, lagMs: 40, lagShare: 0.02}},
		{"slower, lagging on every start", quiet, flat{seed: 2, secs: 12, rate: 200, ms: 5, jitter: 0.2, lagMs: 40}},
		{"the baseline lagging", flat{seed: 1, secs: 12, rate: 200, ms: 2.35, jitter: 0.2, lagMs: 40}, flat{seed: 2, secs: 12, rate: 200, ms: 3, jitter: 0.2, lagMs: 1}},
		{"slow seconds", quiet, flat{seed: 2, secs: 12, rate: 200, ms: 2.6, jitter: 0.6, slowMs: 8, slowSecs: []int{5, 6}, lagMs: 1}},
	}
	gates := []string{"p(50) +10%", "p(95) +10%", "p(99) +10%", "p(50) +1ms", "p(95) +20%"}
	for _, p := range pairs {
		a, _ := p.a.input("a")
		b, _ := p.b.input("b")
		r, err := Compare([]Input{a, b}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, expr := range gates {
			g, err := ParseGate(expr)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check([]Gate{g})[0]
			v := line(t, r, allEndpoints, g.Metric).Values[1]
			if res.Failed && v.Verdict != "worse" {
				t.Errorf("%s, %s: the gate failed (%s) what the table shows as %s", p.name, expr, res.Reason, describe(g.Metric, v))
			}
		}
	}
}

// TestLatencySecondsApart: when every second's own percentile of one run
// lies beyond every second's of the other, neither run's halves nor its
// stretches made the change (the trial's p50s: 20.5–21.8 ms against
// 31–38 ms); seconds that overlap, too few seconds, or seconds too thin
// for the percentile decide nothing.
func TestLatencySecondsApart(t *testing.T) {
	row := func(reqs int64, p50s ...float64) *rowSeconds {
		rs := &rowSeconds{}
		for _, x := range p50s {
			rs.secs = append(rs.secs, second{reqs: reqs, p50: x, p95: 2 * x, p99: 3 * x, hasPercentiles: true})
		}
		return rs
	}
	a := row(50, 20.5, 21.8, 21.2, 20.9, 21.5, 21.0)
	tests := []struct {
		name string
		a, b *rowSeconds
		m    Metric
		want bool
	}{
		{"the trial's p50s", a, row(50, 31, 38, 34, 33, 35, 36), P50, true},
		{"a fall", row(50, 31, 38, 34, 33, 35, 36), a, P50, true},
		{"one second overlapping", a, row(50, 31, 38, 21.7, 33, 35, 36), P50, false},
		{"four seconds a side", row(50, 20.5, 21.8, 21.2, 20.9), row(50, 31, 38, 34, 33), P50, false},
		{"seconds too thin for a p95", a, row(50, 31, 38, 34, 33, 35, 36), P95, false},
		{"seconds holding a p95", row(200, 20.5, 21.8, 21.2, 20.9, 21.5), row(200, 31, 38, 34, 33, 35), P95, true},
		{"a session's p50", a, row(50, 31, 38, 34, 33, 35, 36), FirstMsgP50, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := latencySecondsApart(tc.a, tc.b, tc.m); got != tc.want {
				t.Errorf("apart = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestABaselineWaitThatCannotHideARise: the trial's same build twice, the
// baseline's generator lagging more (p95 lag 27.2 against 8.92 ms): B's
// p95 98.6 → 46.1 ms [-66.2 %, -30.6 %] was not judged against
// 'p(95) +10%' although the whole gap taken out of the baseline leaves it
// at most -15 %. A gap that could carry it past the limit still refuses.
func TestABaselineWaitThatCannotHideARise(t *testing.T) {
	ms := func(x float64) float64 { return x * float64(time.Millisecond) }
	host := hostLag{base: ms(49.9), run: ms(20.8), baseAt: lagLevels{ms(0.2), ms(27.2), ms(49.9)}, runAt: lagLevels{ms(0.1), ms(8.92), ms(20.8)}, busier: -1}
	value := func(base, lo, hi float64) (Value, Value) {
		b := Value{Has: true, Value: base}
		v := Value{Has: true, Value: base * (1 + (lo+hi)/200), CI: &Interval{base * lo / 100, base * hi / 100}}
		d := v.Value - base
		pct := 100 * d / base
		v.Delta, v.DeltaPct, v.CIPct = &d, &pct, &Interval{lo, hi}
		return b, v
	}
	tests := []struct {
		name    string
		gate    string
		base    float64
		lo, hi  float64 // the interval in percent
		canHide bool
	}{
		{"the trial's p95", "p(95) +10%", 98.6, -66.2, -30.6, false},
		{"a p95 near the limit", "p(95) +10%", 98.6, -5, 5, true},
		{"an absolute limit the gap exceeds", "p(95) +10ms", 98.6, -20, -5, true},
		{"an absolute limit it cannot reach", "p(95) +50ms", 98.6, -66.2, -30.6, false},
		{"a gap as large as the baseline", "p(95) +10%", 20, -50, -40, true},
		{"a fall gate", "p(95) -10%", 98.6, -66.2, -30.6, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			b, v := value(tc.base, tc.lo, tc.hi)
			if got := host.canHideRise(g, b, v); got != tc.canHide {
				t.Errorf("canHideRise = %v, want %v", got, tc.canHide)
			}
			failed, notJudged, reason := judge(g, b, v, host)
			if tc.gate == "p(95) +10%" && tc.name == "the trial's p95" && (failed || notJudged || !strings.Contains(reason, "leaves it within the limit too")) {
				t.Errorf("failed=%v not judged=%v %q; want a pass that names the wait", failed, notJudged, reason)
			}
		})
	}
}
