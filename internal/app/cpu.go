package app

import "github.com/loadlens/loadlens/internal/proc"

// cpuMeter measures loadlens's own CPU use between calls, and the host's
// beside it, so a run can show when the generator, not the target, was
// the limit.
type cpuMeter struct {
	own      *proc.CPUMeter
	host     *proc.HostMeter
	lastHost proc.HostReading // the host's CPU over the interval of the latest sample
}

// newCPUMeter starts measuring now.
func newCPUMeter() *cpuMeter {
	return &cpuMeter{own: proc.NewCPUMeter(), host: proc.NewHostMeter(proc.StatPath)}
}

// hostReading returns the host's CPU use over the interval of the latest
// sample, beside loadlens's own.
func (m *cpuMeter) hostReading() proc.HostReading { return m.lastHost }

// sample returns the cores kept busy since the previous call, and false
// where that cannot be measured.
func (m *cpuMeter) sample() (float64, bool) {
	cores, _, ok := m.own.Sample()
	if m.host != nil {
		m.lastHost = m.host.Sample()
	}
	return cores, ok
}
