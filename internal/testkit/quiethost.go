package testkit

import (
	"runtime"
	"testing"
)

// BusyShare is the share of the machine's cores other processes may take
// while a test judges timing: past it (half a core on a 2-core machine),
// runs no longer see the service times (or the shop's CPU limit) the test
// built, and a wrong verdict says nothing.
const BusyShare = 0.25

// BusyCores is how much CPU, in cores, other processes may take on this
// machine while a test judges timing: BusyShare of its cores.
func BusyCores() float64 { return BusyShare * float64(runtime.NumCPU()) }

// attempts is how often JudgeOnQuietHost tries on a busy host.
const attempts = 3

// JudgeOnQuietHost runs attempt, which returns what is wrong with its
// outcome and the CPU, in cores, that other processes used meanwhile, up
// to three times. A wrong outcome while other processes took more than
// BusyCores is logged and tried again; on a quiet host it fails at once.
// A host busy at every attempt skips the test, saying why, except under
// LOADLENS_CI=1, where CI's own machine should be quiet and a skip would
// hide the test: there it fails with every attempt's figures.
func JudgeOnQuietHost(t testing.TB, attempt func() (problems []string, otherCores float64)) {
	t.Helper()
	JudgeOnQuietVM(t, func() Attempt { // no steal measured: never the hypervisor's alone
		problems, other := attempt()
		return Attempt{Problems: problems, Other: other}
	})
}
