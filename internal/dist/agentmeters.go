package dist

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/proc"
)

// agentMeters reads an agent's CPU, its waits for a CPU, its host's CPU
// and its own CPU quota for each second it sends. A second sent less than app.MinMeterSpan after the previous
// reading (an agent that fell behind sends the seconds it missed back to
// back) repeats that reading, measured over no time of its own (cpuWall
// 0, so the agent's mean CPU is not weighed twice): busy time over a few
// ms is a whole core, not the second's CPU.
type agentMeters struct {
	now   func() time.Time
	cpu   func() (cores float64, wall time.Duration, ok bool)
	stall func() (p99, wait float64)
	host  func() proc.HostReading // nil: not read
	quota func() app.QuotaReading // nil: not read
	span  app.MeterSpan
	last  secondHead
}

// newAgentMeters starts measuring now.
func newAgentMeters() *agentMeters {
	cpu, stall := proc.NewCPUMeter(), app.NewStallMeter()
	host := proc.NewHostMeter(proc.StatPath)
	return &agentMeters{now: time.Now, cpu: cpu.Sample, stall: stall.Sample, host: host.Sample, quota: app.NewOwnQuota().Read}
}

// read sets h's CPU, waits for a CPU and host CPU.
func (m *agentMeters) read(h *secondHead) {
	if !m.span.Due(m.now()) {
		h.cpu, h.cpuWall, h.stall, h.wait = m.last.cpu, 0, m.last.stall, m.last.wait
		h.hostBusy, h.hostCPUs, h.quota = m.last.hostBusy, m.last.hostCPUs, m.last.quota
		return
	}
	cores, wall, ok := m.cpu()
	if !ok {
		cores = math.NaN() // unknown, not idle
	}
	h.cpu, h.cpuWall = cores, wall.Seconds()
	h.stall, h.wait = m.stall()
	if m.host != nil {
		if r := m.host(); r.OK && r.CPUs > 0 {
			h.hostBusy, h.hostCPUs = r.Busy, r.CPUs
		}
	}
	if m.quota != nil {
		if r := m.quota(); r.Cores > 0 {
			h.quota = quotaReading{cores: r.Cores, periods: r.Periods, throttled: r.Throttled, held: r.Held}
		}
	}
	m.last = *h
}
