package testkit

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// StealShare is the share of the machine's CPU time the hypervisor may take
// (CPU steal) in a timed run: a paused vCPU stalls every timer, the
// in-process target's too, so 2 % moves a 5 ms server's p95 more than half
// a core of other processes does (and compare's latency gates stop
// judging there).
const StealShare = 0.02

// Attempt is what one attempt of a timed verdict saw: what is wrong with
// its outcome, the CPU other processes used and the CPU the hypervisor
// took, in cores (the busiest of its runs).
type Attempt struct {
	Problems      []string
	Other, Stolen float64
}

// JudgeOnQuietVM is JudgeOnQuietHost with the hypervisor counted: an
// attempt whose host lost more than StealShare of its CPU is retried like
// one beside busy processes. When steal alone kept every attempt from a
// verdict the test skips even under LOADLENS_CI=1: the hypervisor's
// neighbours are outside the machine CI set up, and the attempts' figures
// are logged.
func JudgeOnQuietVM(t testing.TB, attempt func() Attempt) {
	t.Helper()
	limit, stealLimit := BusyCores(), StealShare*float64(runtime.NumCPU())
	var others, stolen []string // each busy attempt's figures, for the verdict
	onlyStolen := true
	for i := 1; i <= attempts; i++ {
		a := attempt()
		if len(a.Problems) == 0 {
			return
		}
		if a.Other < limit && a.Stolen < stealLimit {
			for _, p := range a.Problems {
				t.Errorf("%s (other processes used %.2f cores, under the %.2f of a quiet host; the hypervisor took %.2f)", p, a.Other, limit, a.Stolen)
			}
			return
		}
		onlyStolen = onlyStolen && a.Other < limit
		// Logged whatever comes next: what went wrong on a busy host is still evidence.
		t.Logf("attempt %d of %d: %s, while other processes used %.2f cores (a quiet host: under %.2f of %d) and the hypervisor took %.2f (under %.2f)",
			i, attempts, strings.Join(a.Problems, "; "), a.Other, limit, runtime.NumCPU(), a.Stolen, stealLimit)
		others, stolen = append(others, fmt.Sprintf("%.2f", a.Other)), append(stolen, fmt.Sprintf("%.2f", a.Stolen))
	}
	why := fmt.Sprintf("the host stayed busy: other processes used %s cores and the hypervisor took %s in the %d attempts, over the %.2f (%.0f%% of %d cores) or %.2f stolen a timing verdict needs",
		strings.Join(others, ", "), strings.Join(stolen, ", "), attempts, limit, BusyShare*100, runtime.NumCPU(), stealLimit)
	if os.Getenv("LOADLENS_CI") == "1" && !onlyStolen {
		t.Errorf("%s; under LOADLENS_CI=1 that fails instead of skipping (the attempts' failures are logged above)", why)
		return
	}
	t.Skip(why)
}
