package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// `history` and `runs` read a run's result from two places (history's
// record, run.db's finish) and must say the same word: a run without
// thresholds is not "passed", and one whose every request failed reads
// "all failed" (the s34 trial: history said "passed" of runs that `runs`
// called "no thresholds" and whose summaries read ALL FAILED).
func TestHistoryAndRunsAgreeOnResult(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	for _, name := range []string{"down", "up"} {
		r := loadlens(t, dir, "run", srv.URL+"/"+name, "--rate", "10", "--duration", "1s", "--quiet", "--name", name)
		if r.code != 0 {
			t.Fatalf("run %s exit %d, want 0 (no thresholds)\n%s%s", name, r.code, r.stdout, r.stderr)
		}
	}
	hist := loadlens(t, dir, "history")
	runs := loadlens(t, dir, "runs")
	if hist.code != 0 || runs.code != 0 {
		t.Fatalf("history exit %d, runs exit %d\n%s%s%s%s", hist.code, runs.code, hist.stdout, hist.stderr, runs.stdout, runs.stderr)
	}
	for name, want := range map[string]string{"down": "all failed", "up": "no thresholds"} {
		if !hasRow(hist.stdout, name, want) {
			t.Errorf("history's row of %s does not read %q:\n%s", name, want, hist.stdout)
		}
		if !hasRow(runs.stdout, name, want) {
			t.Errorf("runs's row of %s does not read %q:\n%s", name, want, runs.stdout)
		}
	}
	if strings.Contains(hist.stdout, "passed") {
		t.Errorf("history calls a run without thresholds passed:\n%s", hist.stdout)
	}
}

// hasRow reports whether a line of out names name as a word and holds want.
func hasRow(out, name, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(" "+l+" ", " "+name+" ") && strings.Contains(l, want) {
			return true
		}
	}
	return false
}
