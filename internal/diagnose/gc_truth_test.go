package diagnose

import (
	"strings"
	"testing"
)

// TestGCPressureOnTruthRuns: bench/truth's catalogue runs of truthapp
// (Spring Boot 4 under the OpenTelemetry agent, pinned to one core), as
// loadlens stored them. gc: -Xmx128m, /apps/{id}/export building 20,000
// rows (13 MB) a request, ramped 4 → 24/s; the harness measured its JVM
// paused for GC over 10 % of the hold by its own scrape of
// jvm_gc_pause_seconds_sum. truthapp-healthy: the same service without a
// fault. The rule names the first and is silent on the second, as it was
// on run 3's 128 MB heap at 160/s of 2 MB exports (3.5 % in pauses, under
// both of its thresholds) and on the catalogue's healthy runs.
func TestGCPressureOnTruthRuns(t *testing.T) {
	for _, tc := range []struct {
		file  string
		title string // the start of the one gc-pressure title; "" for none
	}{
		{"truth-gc", "GC pressure: App paused for GC "},
		// the same case into a GC storm: the JVM answered two scrapes at 18 % and 45 %, then none
		// for the rest of the run (10 s timeouts), while completing 13/s of 19/s offered; against
		// its throughput the share did not rise with the load (the rule missed it before)
		{"truth-gc-storm", "GC pause share rises with load: App 1.08% at 6 req/s offered → 44.9% at 20 req/s offered"},
		{"truthapp-healthy", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, fs := diagnoseRunDB(t, "testdata/corpus/"+tc.file+".db")
			got := findingsOf(fs, KindGCPressure)
			switch {
			case tc.title == "" && len(got) > 0:
				t.Errorf("gc-pressure on a healthy run: %q", title(got[0]))
			case tc.title != "" && len(got) != 1:
				t.Fatalf("%d gc-pressure findings, want 1", len(got))
			case tc.title != "":
				if !strings.HasPrefix(title(got[0]), tc.title) || got[0].Severity == Info {
					t.Errorf("gc-pressure %s %q, want a warning or critical starting %q", got[0].Severity, title(got[0]), tc.title)
				}
			}
		})
	}
}
