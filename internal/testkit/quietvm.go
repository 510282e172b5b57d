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
	var seen []string
	onlyStolen := true
	for i := 1; i <= attempts; i++ {
		a := attempt()
		if len(a.Problems) == 0 {
			return
		}
		if a.Other < limit && a.Stolen < stealLimit {
			for _, p := range a.Problems {
				t.Errorf("%s (other processes used %.2f cores, the hypervisor took %.2f: a quiet host)", p, a.Other, a.Stolen)
			}
			return
		}
		onlyStolen = onlyStolen && a.Other < limit
		t.Logf("attempt %d of %d: %s, while other processes used %.2f cores (quiet: under %.2f) and the hypervisor took %.2f (quiet: under %.2f)",
			i, attempts, strings.Join(a.Problems, "; "), a.Other, limit, a.Stolen, stealLimit)
		seen = append(seen, fmt.Sprintf("%.2f+%.2f stolen", a.Other, a.Stolen))
	}
	why := fmt.Sprintf("the host stayed busy in the %d attempts (other processes' cores + stolen cores: %s; a timing verdict needs under %.2f and %.2f)",
		attempts, strings.Join(seen, ", "), limit, stealLimit)
	if os.Getenv("LOADLENS_CI") == "1" && !onlyStolen {
		t.Errorf("%s; under LOADLENS_CI=1 that fails instead of skipping (the attempts' failures are logged above)", why)
		return
	}
	t.Skip(why)
}
