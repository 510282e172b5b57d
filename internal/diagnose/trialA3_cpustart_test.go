package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrialA3CPUFromTheStart diagnoses outside trial A3's runs again
// (copied to testdata/corpus): a CPU full from the first second of a load
// at its full rate is the load's, not context. c3-slowq's PostgreSQL host
// was 100 % busy from 0:00 at a fixed 40 req/s, its seq scans behind a full
// pgxpool of 20 (the pool's connections waited on that CPU); c2-gc-closed's
// Go service, pinned to 1 core at 20 VUs throughout, used its core from
// 0:11 to the end (0.76–0.94 before) while its latency stayed flat, as a
// closed model's does. The healthy runs keep their CPU findings at Info.
func TestTrialA3CPUFromTheStart(t *testing.T) {
	cases := []struct {
		name, db string
		want     *expect // the first cpu-saturation finding; nil: none above Info
		never    []string
	}{
		{"c3-slowq: the DB's CPU, full from the first second of the full load, is behind the full pool", "trialA3-c3-slowq",
			&expect{Critical, [2]int{0, 0}, [2]int{59, 59}, []string{"DB CPU saturated: 100% busy (node_cpu_seconds_total, role=db", "behind the full pool"},
				[]string{"busy inside the DB: they waited on this CPU"}},
			[]string{"before this load rose", "this CPU's use is context"}},
		{"c3-slowq-b: the same, its first scrape at 73%", "trialA3-c3-slowq-b",
			&expect{Critical, [2]int{0, 1}, [2]int{59, 59}, []string{"DB CPU saturated: 100% busy (node_cpu_seconds_total, role=db", "behind the full pool"}, nil},
			[]string{"before this load rose", "this CPU's use is context"}},
		{"c2-gc-closed: the app's own core, at its limit over most of the hold to the end, held its users", "trialA3-c2-gc-closed",
			&expect{Warning, [2]int{11, 11}, [2]int{30, 30}, []string{"App CPU saturated: 100% of 1 core (process_cpu_seconds_total, role=app", "to the run's end", "its users waited for"},
				[]string{"over the hold at 20 VUs"}},
			[]string{"App CPU busy: 100% of 1 core"}},
		{"c2-gc-closed-b: its core full from the first scrape stays held", "trialA3-c2-gc-closed-b",
			&expect{Warning, [2]int{1, 1}, [2]int{30, 30}, []string{"App CPU saturated: 100% of 1 core", "to the run's end"}, nil}, nil},
		{"c1-over: a pool the DB had CPU for names no CPU", "trialA3-c1-over", nil, nil},
		{"c1-40pct: healthy", "trialA3-c1-40pct", nil, nil},
		{"c4-redis-nohog: healthy", "trialA3-c4-redis-nohog", nil, nil},
		{"c6-open30: healthy", "trialA3-c6-open30", nil, nil},
		{"c6-open30-b: healthy, the DB host busy from 0:19 is context", "trialA3-c6-open30-b", nil, nil},
		{"c6-open70: healthy", "trialA3-c6-open70", nil, nil},
		{"c6-open70-b: healthy", "trialA3-c6-open70-b", nil, nil},
		{"c6-closed30: healthy, the DB host busy from 0:11 is context", "trialA3-c6-closed30", nil, nil},
		{"c6-closed30-b: healthy", "trialA3-c6-closed30-b", nil, nil},
		{"c6-closed70: healthy", "trialA3-c6-closed70", nil, nil},
		{"c6-closed70-b: healthy", "trialA3-c6-closed70-b", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", tc.db+".db"))
			if tc.want != nil {
				expectKind(t, fs, KindCPUSaturation, tc.want)
			} else {
				for _, f := range fs {
					if f.Kind == KindCPUSaturation && f.Severity > Info {
						t.Errorf("%s %s finding: %s", f.Severity, f.Kind, title(f))
					}
				}
				if strings.HasPrefix(tc.name, "c1-over") {
					return
				}
				if h := healthyText(in, fs); !strings.Contains(h, "no bottleneck found") {
					t.Errorf("healthy run not called healthy: %q; findings %s", h, titles(fs))
				}
			}
			for _, f := range fs {
				text := findingText(f) + "\n" + strings.Join(f.Remedies, "\n")
				for _, bad := range tc.never {
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", f.Kind, bad, text)
					}
				}
			}
		})
	}
}

// TestCPUFullFromTheStartOrTheHold keeps the dismissals that are right
// beside the rules trial A3 asked for: a CPU full from the start of a ramp
// filled before the load rose, and a closed model's core full over less
// than half of its hold did not hold its users.
func TestCPUFullFromTheStartOrTheHold(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"a ramp from 100 req/s, the DB host full from 0:00: before the load rose, context", withLoad(healthyRamp, nodeCPU(1, 1, 0)),
			&expect{Info, [2]int{0, 0}, [2]int{40, 40}, []string{"DB CPU busy: 100% busy", "from the run's start, before this load rose"}, nil}},
		{"closed, 10 VUs throughout, its core full from 0:10 to the end: its users waited for it", closedWith(jvmPinned(0.97, 10)),
			&expect{Warning, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU saturated: 97% of 1 core", "from 0:10 to the run's end, at its limit over most of the hold at 10 VUs: its users waited for this CPU"},
				[]string{"over the hold at 10 VUs, 0:01–0:39: its CPU at 97% of its CPU limit (median)"}}},
		{"closed, its core full from 0:25 only, under half the hold: context", closedWith(jvmPinned(0.97, 25)),
			&expect{Info, [2]int{25, 25}, [2]int{39, 39}, []string{"App CPU busy: 97% of 1 core", "but the client's latency did not rise with it"}, nil}},
		{"closed, a host full from 0:10 to the end: a host stays out of it", closedWith(nodeCPUOf("app", 0.5, 0.97, 10)),
			&expect{Info, [2]int{10, 10}, [2]int{40, 40}, []string{"App CPU busy: 97% busy"}, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), KindCPUSaturation, tc.want)
		})
	}
}
