package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrialCReplays diagnoses the run.db files of outside trial C (copied
// to testdata/corpus): what a finding must say there, and what no finding
// may say.
func TestTrialCReplays(t *testing.T) {
	cases := []struct {
		name, db string
		kind     string
		want     *expect // nil: no finding of kind
		never    []string
	}{
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
