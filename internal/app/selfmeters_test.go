package app

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/proc"
)

// fakeProcess is a process on a fake clock: its CPU time and the host's
// clock ticks move only as the test says, and a meter over them divides
// busy time by wall time as proc.CPUMeter and proc.HostMeter do.
type fakeProcess struct {
	now, lastAt  time.Time
	cpu, lastCPU time.Duration
}

// read is the meters' reading since the previous one: busy over wall, and
// no host reading over less than one clock tick (10 ms), as /proc/stat.
func (p *fakeProcess) read() meterReading {
	wall, used := p.now.Sub(p.lastAt), p.cpu-p.lastCPU
	p.lastAt, p.lastCPU = p.now, p.cpu
	r := meterReading{cpu: used.Seconds() / wall.Seconds(), cpuOK: true, stall: stall{p99: -1, waitCores: -1}}
	if wall >= 10*time.Millisecond {
		r.host = proc.HostReading{Busy: 1.5, CPUs: 2, OK: true}
	}
	return r
}

// TestSelfMetersSpreadCatchUp: a collector that runs late and then takes
// three seconds a few ms apart reads each of them at the CPU used over the
// span since its last reading, never busy time over a few ms (trial A38's
// 0.999 cores at 0:25 beside 0.003–0.09, with no host reading).
func TestSelfMetersSpreadCatchUp(t *testing.T) {
	const idle = 0.05 // cores the process uses, but while it catches up
	t0 := time.Unix(1_000_000, 0)
	type step struct {
		at   time.Duration // when the collector takes the second, from the start
		busy bool          // it ran flat out since the previous second: catching up
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"on time", []step{{1050 * time.Millisecond, false}, {2050 * time.Millisecond, false}, {3050 * time.Millisecond, false}}},
		{"late, then 3 seconds at once", []step{{1050 * time.Millisecond, false}, {2050 * time.Millisecond, false},
			{5 * time.Second, false}, {5003 * time.Millisecond, true}, {5006 * time.Millisecond, true}, {6050 * time.Millisecond, false}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &fakeProcess{now: t0, lastAt: t0}
			m := &selfMeters{now: func() time.Time { return p.now }, read: p.read}
			prev := time.Duration(0)
			for i, s := range tc.steps {
				span := s.at - prev
				if s.busy {
					p.cpu += span // the collector itself, flat out
				} else {
					p.cpu += time.Duration(idle * float64(span))
				}
				p.now, prev = t0.Add(s.at), s.at
				r := m.sample()
				if !r.cpuOK || r.cpu > 2*idle {
					t.Errorf("second %d (taken at %v): loadlens used %.3f cores (ok %v), want about %.2f: the CPU of a second is not busy time over a few ms", i, s.at, r.cpu, r.cpuOK, idle)
				}
				if !r.host.OK {
					t.Errorf("second %d (taken at %v): no host reading", i, s.at)
				}
			}
		})
	}
}
