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
	cases := []struct {
		name, db string
		kind     string
		want     *expect // nil: no finding of kind
		never    []string
	}{
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
	}
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
