package comparerun

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/testkit"
)

// otherCores runs f and returns the CPU, in cores, that the rest of the
// machine (not this process) used meanwhile; 0 where it cannot be read.
func otherCores(f func()) float64 {
	host := proc.NewHostMeter(proc.StatPath)
	own0, ok0 := proc.CPU()
	start := time.Now()
	f()
	wall := time.Since(start)
	r := host.Sample()
	own1, ok1 := proc.CPU()
	if !r.OK || !ok0 || !ok1 || wall <= 0 {
		return 0
	}
	return max(0, r.Busy-float64(own1-own0)/float64(wall))
}

// judgeOnQuietHost is testkit.JudgeOnQuietHost measuring the rest of the
// machine around attempt.
func judgeOnQuietHost(t *testing.T, attempt func() []string) {
	t.Helper()
	testkit.JudgeOnQuietHost(t, func() (problems []string, other float64) {
		other = otherCores(func() { problems = attempt() })
		return problems, other
	})
}
