package diagnose

import (
	"strings"
	"testing"
)

// TestHostBusyReadsTheFreshestOwnCPU replays run 7's false positive, as the
// bench/truth gc case reproduced it (testdata/corpus/truth-gc-stale): a
// JVM pinned to one core, -Xmx128m, in back-to-back full GCs from 0:09.
// Actuator answered its last scrape at 0:11 (0.53 cores), which stood for
// later seconds while cAdvisor read the app's container at 0.98–1.0 cores
// every second and node_exporter its core 100 % busy: the core was the
// JVM's own. The rows with the container rewritten show the rule still
// reads the container: one that used 0.4 of the core is starved, one
// that used all of it is not.
func TestHostBusyReadsTheFreshestOwnCPU(t *testing.T) {
	for _, tc := range []struct {
		name      string
		container float64 // the app container's cores from 0:12 on; 0 keeps the recorded ones
		want      string  // the start of the target-host-busy title; "" for none
	}{
		{"as recorded: the container full, the JVM's own", 0, ""},
		{"the container at 0.4 of the core: taken by others", 0.4, "App CPU taken by other processes from 0:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := diagnoseRunDB(t, "testdata/corpus/truth-gc-stale.db")
			if tc.container > 0 {
				rewriteContainer(t, in, "app", 12, tc.container)
			}
			got := findingsOf(Diagnose(in), KindTargetHostBusy)
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("target-host-busy on a core the JVM filled: %q", title(got[0]))
			case tc.want != "" && len(got) != 1:
				t.Fatalf("%d target-host-busy findings, want 1", len(got))
			case tc.want != "" && !strings.HasPrefix(title(got[0]), tc.want):
				t.Errorf("title %q, want it to start %q", title(got[0]), tc.want)
			}
		})
	}
}

// rewriteContainer sets the cores of a role's container from second from on.
func rewriteContainer(t *testing.T, in Input, role string, from int, cores float64) {
	t.Helper()
	n := 0
	for _, s := range in.Series.Find(containerCPU) {
		if s.Label("role") != role {
			continue
		}
		for i := range s.Points {
			if s.Points[i].Sec >= from {
				s.Points[i].Value = cores
				n++
			}
		}
	}
	if n == 0 {
		t.Fatalf("no %s container points of role %s from %d", containerCPU, role, from)
	}
}
