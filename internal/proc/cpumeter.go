package proc

import "time"

// CPUMeter measures this process's CPU use between calls, so a run can
// show when the generator, not the target, was the limit.
type CPUMeter struct {
	wall time.Time
	cpu  time.Duration
	ok   bool
}

// NewCPUMeter starts measuring now.
func NewCPUMeter() *CPUMeter {
	c, ok := CPU()
	return &CPUMeter{wall: time.Now(), cpu: c, ok: ok}
}

// Sample returns the cores kept busy since the previous call (user +
// system CPU time over wall time) and the wall time that was (a run's
// last second is cut short); ok is false where it cannot be measured.
func (m *CPUMeter) Sample() (cores float64, wall time.Duration, ok bool) {
	c, now := CPU()
	at := time.Now()
	wall, used, was := at.Sub(m.wall), c-m.cpu, m.ok
	m.wall, m.cpu, m.ok = at, c, now
	if !now || !was || wall <= 0 {
		return 0, wall, false
	}
	return max(used.Seconds(), 0) / wall.Seconds(), wall, true
}
