package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrialAReplays diagnoses the run.db files of outside trial A's second
// round again (copied to testdata/corpus): what a finding must say there,
// and what no finding may say.
func TestTrialAReplays(t *testing.T) {
	cases := []struct {
		name, db string
		kind     string
		want     *expect // nil: no finding of kind
		never    []string
	}{
		{"gc120: the GC finding quotes whole seconds only, not the cut-short 0:32", "trialA-gc120", KindGCPressure,
			&expect{Warning, [2]int{11, 11}, [2]int{11, 31}, []string{"GC pressure: App paused for GC"}, nil},
			[]string{"at 0:32", "15 req/s"}},
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
