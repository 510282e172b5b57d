package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// starved1000 is trial 2's distvu run in small: a closed model of 1,000
// VUs against a target answering in 200–500 ms (352 ms mean), whose
// generator's threads waited for a CPU 6.1× as long as they ran (0.169 of
// 0.0276 cores) while its goroutines' scheduling latency p99 was stall.
// agents: the run was spread over agents.
func starved1000(stall time.Duration, agents bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		const n = 20
		labels := []string{"role", "generator", "target", "loadlens"}
		set := append(generatorSeries(repeat(0.0276, n)...),
			mk(GeneratorCPUWait, series.Gauge, pts(0, 1, repeat(0.169, n)...), labels...),
			mk(GeneratorStall, series.Gauge, pts(0, 1, repeat(stall.Seconds(), n)...), labels...))
		if agents {
			set = append(set, mk(AgentCPU, series.Gauge, pts(0, 1, repeat(0.0276, n)...), "role", "generator", "target", AgentsTarget, AgentLabel, "agent 1 127.0.0.1:28711"))
		}
		return Input{Run: build(t, layout(modelVUs, "GET /slow"), steady(n, 186, 1000, 352*time.Millisecond)), Series: set}
	}
}

// TestGeneratorDelayIsWeighed: a generator that waited for a CPU is the
// bottleneck only when the delay it put on each response is a material
// share of the latencies it measured (trial 2, defect 5).
func TestGeneratorDelayIsWeighed(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		want  *expect
		never []string
	}{
		{"waited 6.1× but 14.7 ms of a 352 ms mean: the figures are the target's", starved1000(14700*time.Microsecond, true), nil,
			[]string{"the numbers are not the target's", "do not use these figures"}},
		{"the same wait with 300 ms of scheduling latency is the generator's", starved1000(300*time.Millisecond, false),
			&expect{Critical, [2]int{0, 0}, [2]int{19, 19}, []string{"The load generator is the bottleneck from 0:00", "6.12× as long as they ran", "the numbers are not the target's"},
				[]string{"scheduling latency meanwhile: p99 up to 300ms"}}, nil},
		{"spread over agents, the remedy names agents, not more machines", starved1000(300*time.Millisecond, true),
			&expect{Critical, [2]int{0, 0}, [2]int{19, 19}, []string{"The load generator is the bottleneck from 0:00"}, nil},
			[]string{spreadRemedy}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			expectKind(t, fs, KindGeneratorBound, tc.want)
			neverSays(t, fs, tc.never)
		})
	}
}

// neverSays fails when a finding's title, evidence or remedies say one of
// never.
func neverSays(t *testing.T, fs []Finding, never []string) {
	t.Helper()
	for _, g := range fs {
		text := findingText(g) + "\n" + strings.Join(g.Remedies, "\n")
		for _, bad := range never {
			if strings.Contains(text, bad) {
				t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
			}
		}
	}
}

// TestAgentRemedies: a distributed run's generator finding says to add
// agents where a single generator's says to spread the load.
func TestAgentRemedies(t *testing.T) {
	fs := Diagnose(starved1000(300*time.Millisecond, true)(t))
	f, ok := findKind(fs, KindGeneratorBound)
	if !ok {
		t.Fatal("no generator-bound finding")
	}
	if !slices.ContainsFunc(f.Remedies, func(r string) bool { return strings.HasPrefix(r, "add agents") }) {
		t.Errorf("remedies %q do not name agents", f.Remedies)
	}
	if slices.Contains(remediesFor(KindGeneratorBound), "add agents") || !slices.Contains(remediesFor(KindGeneratorBound), spreadRemedy) {
		t.Errorf("the kind's own remedies changed: %q", remediesFor(KindGeneratorBound))
	}
}

// lateStart is trial 2's road2 in small: 80/s against a target answering
// in 23 ms, whose VUs were ready lag late at second 1 (77 iterations
// dropped) and whose late iterations all ran in seconds 1–2, timed from
// their intended starts; from second 3 on the target answers in slowAfter.
func lateStart(lag, slowAfter time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(9, 80, 8, slowAfter)
		secs[0].reqs[0].dur = even(23*time.Millisecond, 0.5)
		secs[1].lag, secs[1].dropped = lag, 77
		secs[1].reqs[0] = reqs{n: 60, dur: even(lag, 0.1)}
		secs[2].reqs[0] = reqs{n: 145, dur: even(lag*9/10, 0.2)}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /db"), secs)}
	}
}

// TestLateStartIsTheGenerators: a late start whose lag set the run's p95
// is a generator finding, and the run's verdict is not the target's (trial
// 2, defect 1); a lag the run never recovered from, or one of the order of
// the target's own latency, is not.
func TestLateStartIsTheGenerators(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"1.9 s late at the start, 23 ms after", lateStart(1900*time.Millisecond, 23*time.Millisecond),
			&expect{Critical, [2]int{1, 1}, [2]int{2, 2}, []string{"The load generator is the bottleneck from 0:01: iterations started up to 1.90s late (scheduler lag p99) and caught up in a burst, 77 iterations dropped"},
				[]string{"afterwards, on schedule: p95 2"}}},
		{"a target as slow as the lag to the end made its own lag", lateStart(1900*time.Millisecond, 1800*time.Millisecond), nil},
		{"30 ms late beside a 23 ms target, no faster on schedule, is a hiccup", lateStart(30*time.Millisecond, 23*time.Millisecond), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), KindGeneratorBound, tc.want)
		})
	}
}

// TestTrial2Replays diagnoses trial 2's own run.db files again (copied to
// testdata/corpus).
func TestTrial2Replays(t *testing.T) {
	cases := []struct {
		name, db, kind string
		want           *expect
		never          []string
	}{
		{"distvu: 1,000 VUs at Little's law's rate are not generator-bound", "trial2-distvu", KindGeneratorBound, nil,
			[]string{"the numbers are not the target's", "do not use these figures"}},
		{"road2: VUs ready 1.91 s late is the generator's, not 'no bottleneck'", "trial2-road2", KindGeneratorBound,
			&expect{Critical, [2]int{1, 1}, [2]int{2, 2}, []string{"The load generator is the bottleneck from 0:01: iterations started up to 1.91s late (scheduler lag p99) and caught up in a burst, 77 iterations dropped; the numbers are not the target's"},
				[]string{"the run's p95: 1.82s", "afterwards, on schedule: p95 24.9ms"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", tc.db+".db"))
			expectKind(t, fs, tc.kind, tc.want)
			neverSays(t, fs, tc.never)
		})
	}
}
