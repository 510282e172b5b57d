package testkit

import "testing"

// BusyCores is how much CPU other processes may take while a test judges
// timing: past half a core, runs on a 2-core machine no longer see the
// service times (or the shop's CPU limit) the test built, and a wrong
// verdict says nothing.
const BusyCores = 0.5

// JudgeOnQuietHost runs attempt, which returns what is wrong with its
// outcome and the CPU, in cores, that other processes used meanwhile, up
// to three times. A wrong outcome while other processes took more than
// BusyCores is tried again, and the test skipped, saying why, if the host
// stayed busy; on a quiet host it fails at once.
func JudgeOnQuietHost(t testing.TB, attempt func() (problems []string, otherCores float64)) {
	t.Helper()
	const attempts = 3
	for i := 1; ; i++ {
		problems, other := attempt()
		if len(problems) == 0 {
			return
		}
		if other < BusyCores {
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
