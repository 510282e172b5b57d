package e2e

import (
	"strings"
	"testing"
	"time"
)

// A nightly series: eight runs of one test, then a regression that multiplies
// the service time ten times. `history --fail-on-change 'p(95)'` exits 99
// on the third run of the new level, naming that level's first run and the
// labels around it.
func TestHistoryFailOnChange(t *testing.T) {
	n := newNightlyTarget(t)
	for i := range 8 {
		n.run(i)
	}
	// Whether these eight are one level is this shared machine's business
	// (other work starting shifts them: a real change, which history rightly
	// reports); the unit tests judge stable series with known noise.
	n.serviceTime(300 * time.Millisecond) // ten times: far above this shared machine's noise
	for i := 8; i < 11; i++ {
		n.run(i)
	}
	dir := n.dir
	r := loadlens(t, dir, "history", "nightly", "--fail-on-change", "p(95)")
	if r.code != 99 {
		t.Fatalf("history after a regression exit %d, want 99\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "change for the worse in nightly: GET / p(95) +"
	flat := strings.Join(strings.Fields(r.stdout), " ") // the change wraps at 100 columns
	if !strings.Contains(flat, want) || !strings.Contains(flat, "commit=c08; before: commit=c07") {
		t.Errorf("history does not name the change and its labels (%q, commit=c08; before: commit=c07):\n%s", want, r.stdout)
	}
	if r := loadlens(t, dir, "history", "nightly", "--fail-on-change", "rps"); r.code != 0 {
		t.Errorf("history --fail-on-change rps exit %d, want 0: the rate held\n%s", r.code, r.stdout)
	}
	if r := loadlens(t, dir, "history", "nightly", "--fail-on-change", "p(97)"); r.code != 2 || !strings.Contains(r.stderr, "unknown figure") {
		t.Errorf("an unknown figure: exit %d, want 2 with its reason\n%s", r.code, r.stderr)
	}
}
