package app

import (
	"os"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/series"
)

// ownNames name loadlens's own cgroup series: not the targets' names,
// which diagnose's cgroupThrottling reads as a target's.
var ownNames = &cgroupNames{diagnose.GeneratorQuota, diagnose.GeneratorPeriods, diagnose.GeneratorThrottled, diagnose.GeneratorThrottledSec, ""}

// ownQuota watches the cgroup whose CPU quota holds loadlens's own
// process, as on Kubernetes with a CPU limit: GOMAXPROCS is then the quota
// rounded up (1.5 cores read as 2), and the kernel's throttling is the
// proof that loadlens, not the target, ran out of CPU. Its zero watch
// (no quota, or not Linux) records nothing, as does a nil one (a
// distributed run's coordinator, which makes no load).
type ownQuota struct{ w *cgroupWatch }

// newOwnQuota finds the quota that holds process pid (loadlens's own)
// under procRoot and cgroupRoot, and takes its first reading.
func newOwnQuota(procRoot, cgroupRoot string, pid int) *ownQuota {
	l, ok, err := proc.FindCPULimit(procRoot, cgroupRoot, pid)
	if err != nil || !ok {
		return &ownQuota{}
	}
	w := &cgroupWatch{labels: selfLabels, names: ownNames, limit: l}
	w.last, err = proc.ReadCPUStat(l)
	w.at, w.ok = time.Now(), err == nil
	return &ownQuota{w: w}
}

// capacity returns the cores loadlens may use: the fewer of its quota as
// last read and gomaxprocs (threads that run Go code at once); gomaxprocs
// without a quota.
func (q *ownQuota) capacity(gomaxprocs float64) float64 {
	if q == nil || q.w == nil || !q.w.ok || q.w.last.Cores <= 0 {
		return gomaxprocs
	}
	return min(q.w.last.Cores, gomaxprocs)
}

// sample returns second sec's series of the quota and its throttling;
// none without a quota.
func (q *ownQuota) sample(sec int) series.Set {
	if q == nil || q.w == nil {
		return nil
	}
	return (&cgroupMeter{watches: []*cgroupWatch{q.w}}).sample(sec)
}

// QuotaReading is one reading of the CPU quota that holds loadlens's own
// process: the quota in cores (0: none) and, per second since the
// previous reading, its periods, those throttled and the time held back
// (all 0 at a first reading).
type QuotaReading struct{ Cores, Periods, Throttled, Held float64 }

// OwnQuota is ownQuota for an agent, which sends its readings to the
// coordinator with each second.
type OwnQuota struct{ q *ownQuota }

// NewOwnQuota finds the quota that holds this process; one that finds none
// reads none.
func NewOwnQuota() *OwnQuota {
	return &OwnQuota{newOwnQuota(proc.ProcRoot, proc.CgroupRoot, os.Getpid())}
}

// Capacity is the cores this process may use: the fewer of its quota and
// gomaxprocs; gomaxprocs without a quota.
func (o *OwnQuota) Capacity(gomaxprocs float64) float64 { return o.q.capacity(gomaxprocs) }

// Read returns the quota and its counters' rates since the previous Read.
func (o *OwnQuota) Read() QuotaReading {
	var r QuotaReading
	for _, s := range o.q.sample(0) {
		v := s.Points[0].Value
		switch s.Name {
		case diagnose.GeneratorQuota:
			r.Cores = v
		case diagnose.GeneratorPeriods:
			r.Periods = v
		case diagnose.GeneratorThrottled:
			r.Throttled = v
		case diagnose.GeneratorThrottledSec:
			r.Held = v
		}
	}
	return r
}
