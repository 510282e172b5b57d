package diagnose

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestMoreVUsWithLowCPU checks that a closed model's flat throughput beside
// a target CPU that stayed low names a lock or a wait inside the app, and
// that a busy CPU, a scraped DB or cache, or no CPU at all keeps the
// saturation's own remedies.
func TestMoreVUsWithLowCPU(t *testing.T) {
	redis := mk("redis_connected_clients", series.Gauge, pts(0, 1, repeat(10, 40)...), "role", "cache", "target", "redis")
	for _, tc := range []struct {
		name string
		set  series.Set
		lock bool // the title and remedies name a lock
	}{
		{"a Go app at 0.08 of 2 cores (trial A's global mutex)", goService(0.08, 2, 0), true},
		{"a Go app at 1.9 of 2 cores: out of CPU", goService(1.9, 2, 0), false},
		{"a Go app at 0.08 of 2 cores beside a scraped cache", append(goService(0.08, 2, 0), redis), false},
		{"no CPU scraped", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(withLoad(vusDoubling(modelVUs), tc.set)(t))
			f, ok := findKind(fs, KindMoreVUsSameTPS)
			if !ok {
				t.Fatalf("no more-vus-same-tps finding: %s", titles(fs))
			}
			rem := strings.Join(f.Remedies, "\n")
			said := strings.Contains(title(f), "; App CPU 4% of its CPU limit while throughput is flat: a lock, a single-threaded section or a wait inside the app")
			if said != tc.lock || strings.Contains(rem, "pprof's mutex and block profiles") != tc.lock ||
				strings.Contains(rem, "scale the component that did not scale") == tc.lock {
				t.Errorf("lock %v: %s\n%s", tc.lock, findingText(f), rem)
			}
			if tc.lock && !hasEvidence(f, "App CPU in the hold at the most VUs: 4% of its CPU limit (process_cpu_seconds_total, role=app, target=app, median)") {
				t.Errorf("no CPU evidence:\n%s", findingText(f))
			}
		})
	}
}
