package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrialReplays diagnoses the run.db files of outside trials A (its
// second round) and C again (copied to testdata/corpus): what a finding
// must say there, and what no finding may say.
func TestTrialReplays(t *testing.T) {
	replayTrials(t, []replayCase{
		{"gc120: the GC finding quotes whole seconds only, not the cut-short 0:32", "trialA-gc120", KindGCPressure,
			&expect{Warning, [2]int{11, 11}, [2]int{11, 31}, []string{"GC pressure: App paused for GC"}, nil},
			[]string{"at 0:32", "15 req/s"}},
		{"cache-flush1: the flushed Redis went cold at 0:20 as the median rose", "trialA-cacheflush", KindCacheCold,
			&expect{Warning, [2]int{20, 20}, [2]int{39, 39}, []string{"Redis keyspace went cold at 0:20: hits fell from 100% to 16.4% of lookups", "median latency 594µs → 26.7ms"},
				[]string{"the client's median latency: 594µs before, 26.7ms from the fall on (44.9×)"}}, nil},
		{"cache-flush1: the busy generator host follows the target's step", "trialA-cacheflush", KindHostBusy,
			&expect{Warning, [2]int{12, 12}, [2]int{37, 37}, []string{"but the target's median latency rose 44.9× at 0:20, more than the generator's own delay explains"},
				[]string{"while the generator's lag p99 was 13.3ms (median)"}}, []string{"the numbers are not the target's"}},
		{"mutex: a queue that grew over time is no two code paths", "trialA-mutex", KindBimodalLatency, nil, []string{"cache hits and misses"}},
		{"mutex-vus: flat throughput at 2% CPU names a lock, not a component to scale", "trialA-mutexvus", KindMoreVUsSameTPS,
			&expect{Warning, [2]int{2, 2}, [2]int{39, 39}, []string{"; App CPU 2% of its CPU limit while throughput is flat: a lock, a single-threaded section or a wait inside the app"},
				[]string{"App CPU in the hold at the most VUs: 2% of its CPU limit"}}, []string{"scale the component that did not scale"}},
		{"cache-warm: a warm cache throughout goes not cold", "trialA-cachewarm", KindCacheCold, nil, nil},
		{"cache-warm: a flat median on the busy host is still not the target's", "trialA-cachewarm", KindHostBusy,
			&expect{Critical, [2]int{3, 3}, [2]int{39, 39}, []string{"; the numbers are not the target's"}, nil}, nil},
		{"steady 5%: errors failing 5% from the first second are errors from the start, not with time", "trialC-steady5", KindErrorsAtLoad,
			&expect{Critical, [2]int{1, 1}, [2]int{6, 6}, []string{"Errors from the start (0:01, 60 req/s offered)"}, nil},
			[]string{"served before", "come with time", "a leak"}},
		{"genstarved 5c: a healthy target behind a starved generator is not named saturated", "trialA38-genstarved", KindSaturation, nil, nil},
		{"genstarved 5c: the starved generator's host finding stands, its threads' wait beside the target's idle CPU", "trialA38-genstarved", KindHostBusy,
			&expect{Critical, [2]int{0, 0}, [2]int{30, 30}, []string{"; its threads waited for a CPU 52.4× as long as they ran while the target used 0.0559 cores", NotTheTargets},
				[]string{"a response that had arrived waited for loadlens to read it"}}, []string{"more than the generator's own delay explains", "read the target's own findings first"}},
		{"genstarved 5c: the generator-bound finding is not lowered below the target's", "trialA38-genstarved", KindGeneratorBound,
			&expect{Critical, [2]int{5, 5}, [2]int{8, 8}, []string{"its threads waited for a CPU", NotTheTargets}, nil}, nil},
		{"genstarved live (the fixed build, schedule-true offered): no VU waited for the idle target", "trialA38-genstarved-live", KindTargetHeldVUs, nil, nil},
		{"genstarved live: the starved generator's host finding stands", "trialA38-genstarved-live", KindHostBusy,
			&expect{Critical, [2]int{0, 0}, [2]int{0, 99}, []string{"its threads waited for a CPU", "as long as they ran while the target used", NotTheTargets}, nil}, nil},
		{"late collector 1a: catch-up seconds' busy time over a few ms (no host reading) is no generator CPU", "trialA38-latecollector", KindGeneratorBound,
			&expect{Critical, [2]int{18, 18}, [2]int{23, 23}, []string{"636 iterations dropped for lack of VUs"}, nil}, []string{"its CPU at", "0.999 of 1 core", "1 of 1 core"}},
		{"tomcat 1a: a target that truly saturates beside a busy generator host still gets saturation", "trialA38-threads", KindSaturation,
			&expect{Warning, [2]int{2, 2}, [2]int{23, 23}, []string{"Saturation: throughput stayed below the offered load"}, nil}, nil},
		{"tomcat 1a: every VU waited for Tomcat: its generator ran short only once a thousand VUs piled up, an effect", "trialA38-threads", KindTargetHeldVUs,
			&expect{Warning, [2]int{18, 18}, [2]int{18, 99}, []string{"Every VU was waiting for the target from 0:18"}, nil}, nil},
		{"tomcat 1a: its generator waited, but was not starved: the target's step stays the target's (stop 37)", "trialA38-threads", KindHostBusy,
			&expect{Warning, [2]int{5, 5}, [2]int{0, 99}, []string{"but the target's median latency rose 175× at 0:05, more than the generator's own delay explains"}, nil},
			[]string{"while the target used", NotTheTargets}},
	})
}

// replayCase is one recorded run's expectation: the finding of kind it
// must have (want; nil: none), and what no finding of the run may say.
type replayCase struct {
	name, db string
	kind     string
	want     *expect // nil: no finding of kind
	never    []string
}

// replayTrials diagnoses each case's run.db of testdata/corpus again.
func replayTrials(t *testing.T, cases []replayCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", tc.db+".db"))
			if _, found := expectKind(t, fs, tc.kind, tc.want); !found {
				return
			}
			for _, g := range fs {
				text := findingText(g) + "\n" + strings.Join(g.Remedies, "\n")
				for _, bad := range tc.never {
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}
