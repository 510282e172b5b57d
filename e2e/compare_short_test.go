package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCompareShortRuns is the outside tester's trial: 5-second runs of one
// server at 200 req/s (4 compared seconds each). Every line compare prints
// fits 100 columns, with 3 runs a side, 3 runs one each and its gates;
// 2 runs against 1 give no interval but say why; a gate on a change the
// table calls not testable is not judged, names why and how long a hold
// would let it judge, and fails (exit 3, could not judge) unless --allow-not-judged.
func TestCompareShortRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("six 5-second runs")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	defer srv.Close()
	dir := t.TempDir()
	// The runs three at a time (the gates below judge the output's form and
	// what is testable, not the latencies): 10 s of waiting, not 30. All six
	// at once left a generator without a compared second beside a CPU hog.
	var args [][]string
	for i := range 6 {
		args = append(args, []string{"run", srv.URL + "/p", "--rate", "200", "--duration", "5s", "--quiet", "--no-dashboard", "--results", fmt.Sprintf("r%d", i)})
	}
	var runs []string
	for i, r := range append(loadlensTogether(t, dir, args[:3]...), loadlensTogether(t, dir, args[3:]...)...) {
		if r.code != 0 {
			t.Fatalf("run %d exit %d\n%s%s", i, r.code, r.stdout, r.stderr)
		}
		dbs, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("r%d", i), "*", "run.db"))
		if len(dbs) != 1 {
			t.Fatalf("runs under r%d: %v", i, dbs)
		}
		runs = append(runs, filepath.Dir(dbs[0]))
	}
	gates := []string{"--fail-on-regression", "p(95) +10%", "--fail-on-regression", `p(99){endpoint:"GET /p"} -5%`}
	tests := []struct {
		name  string
		args  []string
		code  int // -1: 0, 3 or 99
		wants []string
	}{
		// A loopback server's tail swings with a busy host between runs:
		// the gates' verdict here is the host's, and not judged.
		{"3 runs a side", append([]string{runs[0], runs[1], runs[2], "vs", runs[3], runs[4], runs[5]}, gates...), -1,
			[]string{"A3", "B3", "regression gates:"}},
		{"3 runs", append([]string{runs[0], runs[1], runs[2]}, gates...), 3,
			[]string{"C vs A", "not testable¹", "¹ not testable: fewer than 5 compared seconds", "✗ p(95) +10%",
				"not testable: fewer than 5 compared seconds; a hold of 6 seconds or more at this load (5 compared seconds a run) would let it judge",
				"✗ not judged fails", "--allow-not-judged"}},
		{"2 runs against 1", []string{runs[0], runs[1], "vs", runs[2]}, 0,
			[]string{"not testable: 2 runs against 1 leave 1 degree of freedom"}},
		{"allowed", append([]string{runs[0], runs[1], runs[2], "--allow-not-judged"}, gates...), 0,
			[]string{"? p(95) +10%", "not judged", "? not judged: the gate could not judge the change"}},
		{"strict, the default", append([]string{runs[0], runs[1], "--strict"}, gates...), 3,
			[]string{"✗ p(95) +10%", "not judged", "✗ not judged fails"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := loadlens(t, dir, append([]string{"compare"}, tc.args...)...)
			out := r.stdout + r.stderr
			if tc.code >= 0 && r.code != tc.code || tc.code < 0 && r.code != 0 && r.code != 3 && r.code != 99 {
				t.Errorf("exit %d, want %d\n%s", r.code, tc.code, out)
			}
			for i, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n > 100 {
					t.Errorf("line %d is %d columns:\n%s", i+1, n, l)
				}
			}
			flat := strings.Join(strings.Fields(out), " ")
			for _, want := range tc.wants {
				if !strings.Contains(flat, want) {
					t.Errorf("the output lacks %q:\n%s", want, out)
				}
			}
			// The table and the gates agree: nothing untestable is "~".
			if strings.Contains(out, "not testable") && strings.Contains(out, "~ no significant change") && !strings.Contains(out, "~ [") {
				t.Errorf("the legend explains a ~ no cell shows:\n%s", out)
			}
		})
	}
}
