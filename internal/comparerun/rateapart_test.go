package comparerun

import (
	"path/filepath"
	"testing"
)

// TestThroughputChangeInEverySecond is trial 2s39's case study 5 fix: the
// cache bug's run served 36–189 req/s while warming up, the fix 242–371 in
// every second at the same 300/s offered; compare read req/s 123 → 300
// "~ [+49.8%, +479%] < noise 260%", the bug run's halves held it back.
// Every second apart is a change, as it is for a latency; swapped, worse.
func TestThroughputChangeInEverySecond(t *testing.T) {
	dir := t.TempDir()
	bug, fixed := copyRun(t, dir, "trial2s39", "bug"), copyRun(t, dir, "trial2s39", "fixed")
	for _, c := range []struct {
		runs []string
		want string
	}{{[]string{bug, fixed}, "better"}, {[]string{fixed, bug}, "worse"}} {
		_, rep := compareJSON(t, c.runs)
		for _, m := range rep.Rows[0].Metrics {
			if m.Metric != "req/s" && m.Metric != "successful req/s" {
				continue
			}
			if v := m.Groups[1]; v.Verdict != c.want || !v.Significant {
				t.Errorf("%s of %s: %q (significant %v), want %q", m.Metric, filepath.Base(c.runs[1]), v.Verdict, v.Significant, c.want)
			}
		}
	}
}
