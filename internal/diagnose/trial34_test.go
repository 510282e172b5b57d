package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// TestTargetTroubleLeads checks the generator's findings of runs in which
// the target had trouble of its own while the generator was late (the s34
// trial's naive shop: 99.6 % 503s and 1.35× the latency beside a busy
// host read "the target was not slower ... the numbers are not the
// target's"): the target's finding leads, and the generator's does not
// call the target fine.
func TestTargetTroubleLeads(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string // substrings no finding's title or evidence may hold
	}{
		{"the trial's run: 503s while dropping with the pool held by loadlens's CPU", replay("trial34-naive"), KindGeneratorBound,
			&expect{Warning, [2]int{9, 9}, [2]int{11, 11},
				[]string{"The load generator also limited the test from 0:09: 101 iterations dropped", "but the target answered 97.86% of requests meanwhile with http_5xx"},
				[]string{"(1.35×): it holds loadlens's own wait for a CPU", "its own answers"}},
			[]string{"the target was not slower", "The load generator is the bottleneck", "do not use these figures"}},
		{"the trial's run: nor does its busy host say the numbers are not the target's", replay("trial34-naive"), KindHostBusy,
			&expect{Warning, [2]int{5, 5}, [2]int{20, 20}, []string{"The generator's host was short of CPU from 0:05", "but the target answered"}, nil},
			[]string{"the numbers are not the target's", "do not use these figures"}},
		{"503s while dropping: a warning after the errors", naiveDrops(2000, 600, true), KindGeneratorBound,
			&expect{Warning, [2]int{6, 6}, [2]int{11, 11}, []string{"but the target answered 99.00% of requests meanwhile with http_5xx"}, []string{"(1.3×): it holds loadlens's own wait for a CPU"}},
			[]string{"the target was not slower"}},
		{"1.3× slower, no failures, pool held by max_vus: the target's slowdown is named", naiveDrops(2000, 600, false), KindGeneratorBound,
			&expect{Warning, [2]int{6, 6}, [2]int{11, 11}, []string{"but the target's responses took 1.3× as long as before"},
				[]string{"(1.3×): the target was slower, if by less than half again"}},
			[]string{"the target was not slower", "the numbers are not the target's"}},
		{"1.1× slower, no failures: the generator's, as before", naiveDrops(2000, 200, false), KindGeneratorBound,
			&expect{Critical, [2]int{6, 6}, [2]int{11, 11}, []string{"The load generator is the bottleneck from 0:06", "the numbers are not the target's"},
				[]string{"(1.1×): the target was not slower"}}, nil},
		{"a few 503s are not the target's story", naiveFew, KindGeneratorBound,
			&expect{Critical, [2]int{6, 6}, [2]int{11, 11}, []string{"The load generator is the bottleneck from 0:06"}, nil}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, found := expectKind(t, fs, tc.kind, tc.want)
			if !found {
				return
			}
			if follows := tc.want != nil && tc.want.severity == Warning; f.FollowsTarget != follows {
				t.Errorf("FollowsTarget %v, want %v (capacity judges a step on a finding that follows the target)", f.FollowsTarget, follows)
			}
			if tc.want != nil && tc.want.severity == Warning {
				leadsTarget(t, fs)
			}
			for _, g := range fs {
				text := findingText(g)
				if g.Kind == tc.kind && tc.want != nil && tc.want.severity == Warning {
					text += "\n" + strings.Join(g.Remedies, "\n")
				}
				for _, bad := range tc.never {
					if g.Kind == tc.kind && strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}

// replay diagnoses a run.db of testdata/corpus.
func replay(db string) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", db+".db"))
		return in
	}
}

// naiveDrops is the trial's naive shop in small: 100 req/s at 2 s, then
// from 0:06 drops of 30 iterations a second with responses slower by rise
// (ms), 99 % of them 503s when failing, the VU pool held at 1,000 by
// loadlens's CPU when failing, else by max_vus (in flight: 200).
func naiveDrops(mean, rise time.Duration, failing bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(12, 100, 200, mean*time.Millisecond)
		for i := 6; i < len(secs); i++ {
			secs[i].dropped = 30
			secs[i].reqs[0].dur = even((mean+rise)*time.Millisecond, 0.5)
		}
		for i := range secs {
			if failing {
				secs[i].reqs[0].fail, secs[i].reqs[0].kind = 99, sample.HTTP5xx
			}
		}
		reason := "max_vus"
		if failing {
			reason = "generator_cpu"
		}
		held := mk(GeneratorPoolHeld, series.Gauge, pts(6, 1, repeat(1000, 6)...), "role", "generator", "target", "loadlens", "scenario", "s", "reason", reason)
		return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), secs), Series: series.Set{held}}
	}
}

// naiveFew is naiveDrops at the same latency with 2 % of its requests
// answered 503: below genTargetFailed.
func naiveFew(t *testing.T) Input {
	in := naiveDrops(2000, 0, false)(t)
	secs := steady(12, 100, 200, 2*time.Second)
	for i := range secs {
		if i >= 6 {
			secs[i].dropped = 30
		}
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = 2, sample.HTTP5xx
	}
	in.Run = build(t, layout(modelArrivalRate, "GET /apps/first-page"), secs)
	return in
}

// leadsTarget fails when a finding of the generator comes before one of
// the target's, warning or critical.
func leadsTarget(t *testing.T, fs []Finding) {
	t.Helper()
	gen := -1
	for i, f := range fs {
		switch {
		case f.Kind == KindGeneratorBound || f.Kind == KindHostBusy:
			gen = max(gen, i)
		case f.Severity >= Warning && gen >= 0 && i > gen:
			t.Errorf("the %s finding leads, not the target's %s", fs[gen].Kind, f.Kind)
		}
	}
}

// TestSlowEndpointOthersLabel checks the source of "the other requests'"
// median in a slow-endpoint finding: {not_endpoint="…",not_scenario="s"}
// read as "not scenario s" in a one-scenario test (s34 trial, 12); it
// names the scenario only when there are several, as the endpoint's own.
func TestSlowEndpointOthersLabel(t *testing.T) {
	reqsOf := []reqs{{ep: 0, n: 450, dur: even(2*time.Millisecond, 0.5)}, {ep: 1, n: 450, dur: even(3*time.Millisecond, 0.5)},
		{ep: 2, n: 100, dur: even(300*time.Millisecond, 0.5)}}
	two := layout(modelArrivalRate, "GET /a", "GET /b", "POST /coupons/issue")
	two.Scenarios = append(two.Scenarios, sample.ScenarioInfo{Name: "admin", Model: modelArrivalRate})
	two.Endpoints[2].Scenario = 1
	cases := []struct {
		name   string
		layout sample.Layout
		want   string
	}{
		{"one scenario", layout(modelArrivalRate, "GET /a", "GET /b", "POST /coupons/issue"), `http_req_duration{not_endpoint="POST /coupons/issue"}`},
		{"two scenarios", two, `http_req_duration{not_endpoint="POST /coupons/issue",not_endpoint_scenario="admin"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			secs := make([]sec, 10)
			for i := range secs {
				secs[i].reqs = reqsOf
			}
			fs := Diagnose(Input{Run: build(t, tc.layout, secs)})
			f, found := expectKind(t, fs, KindBimodalLatency, &expect{Info, [2]int{0, 0}, [2]int{9, 9},
				[]string{"One slow endpoint: POST /coupons/issue p50 299ms vs 2.40ms for the other requests"}, nil})
			if !found {
				return
			}
			if !hasEvidence(f, tc.want) {
				t.Errorf("no evidence from %s in %+v", tc.want, f.Evidence)
			}
		})
	}
}
