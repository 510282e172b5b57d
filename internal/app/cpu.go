package app

import (
	"time"

	"github.com/loadlens/loadlens/internal/proc"
)

// cpuMeter measures loadlens's own CPU use between calls, so a run can
// show when the generator, not the target, was the limit.
type cpuMeter struct {
	lastWall time.Time
	lastCPU  time.Duration
	ok       bool
	host     *proc.HostMeter
	lastHost proc.HostReading // the host's CPU over the interval of the latest sample
}

// newCPUMeter starts measuring now.
func newCPUMeter() *cpuMeter {
	cpu, ok := proc.CPU()
	return &cpuMeter{lastWall: time.Now(), lastCPU: cpu, ok: ok, host: proc.NewHostMeter(proc.StatPath)}
}

// hostReading returns the host's CPU use over the interval of the latest
// sample, beside loadlens's own.
func (m *cpuMeter) hostReading() proc.HostReading { return m.lastHost }

// sample returns the cores kept busy since the previous call (user +
// system CPU time over wall time), and false where that cannot be measured.
func (m *cpuMeter) sample() (float64, bool) {
	cpu, ok := proc.CPU()
	now := time.Now()
	if m.host != nil {
		m.lastHost = m.host.Sample()
	}
	wall := now.Sub(m.lastWall)
	used := cpu - m.lastCPU
	m.lastWall, m.lastCPU = now, cpu
	if !ok || !m.ok || wall <= 0 {
		m.ok = ok
		return 0, false
	}
	return max(used.Seconds(), 0) / wall.Seconds(), true
}
