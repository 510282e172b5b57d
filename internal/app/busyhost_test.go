package app

import (
	"testing"
	"time"
)

// busyCores is how much CPU other processes may take while a test judges
// timing: past half a core, runs on a 2-core machine no longer see the
// service times the test built, and a wrong verdict says nothing.
const busyCores = 0.5

// otherCores runs f and returns the CPU, in cores, that the rest of the
// machine (not this process) used meanwhile; 0 where it cannot be read.
func otherCores(f func()) float64 {
	host := newHostMeter(procStat)
	own0, ok0 := processCPU()
	start := time.Now()
	f()
	wall := time.Since(start)
	r := host.sample()
	own1, ok1 := processCPU()
	if !r.ok || !ok0 || !ok1 || wall <= 0 {
		return 0
	}
	return max(0, r.busy-float64(own1-own0)/float64(wall))
}

// judgeOnQuietHost runs attempt, which returns what is wrong with its
// outcome, up to three times. A wrong outcome while other processes took
// more than busyCores is tried again, and the test skipped, saying why, if
// the host stayed busy; on a quiet host it fails at once.
func judgeOnQuietHost(t *testing.T, attempt func() []string) {
	t.Helper()
	const attempts = 3
	for i := 1; ; i++ {
		var problems []string
		other := otherCores(func() { problems = attempt() })
		if len(problems) == 0 {
			return
		}
		if other < busyCores {
			for _, p := range problems {
				t.Errorf("%s (other processes used %.2f cores)", p, other)
			}
			return
		}
		if i == attempts {
			t.Skipf("the host stayed busy: other processes used %.2f cores during attempt %d of %d, and %v", other, i, attempts, problems)
		}
		t.Logf("attempt %d: %v while other processes used %.2f cores; trying again", i, problems, other)
	}
}
