package app

import (
	"time"

	"github.com/loadlens/loadlens/internal/proc"
)

// MinMeterSpan is the least wall time a reading of the generator's own
// meters covers. A collector that fell behind takes the seconds it missed
// back to back, a few ms apart: busy time over a few ms reads as a whole
// core, the host's clock ticks (10 ms) do not move, and the goroutines'
// waits are none (trial A38: 0.999 cores at 0:25 beside 0.003–0.09 in
// every other second, and no host reading).
const MinMeterSpan = 500 * time.Millisecond

// MeterSpan spaces a meter's readings at least MinMeterSpan apart; its zero
// value has taken none.
type MeterSpan struct {
	at  time.Time // when the latest reading was taken
	has bool      // a reading was taken
}

// Due reports whether a reading taken now covers at least MinMeterSpan
// since the latest, and if so notes now as the latest; when false the
// caller repeats its latest reading.
func (s *MeterSpan) Due(now time.Time) bool {
	if s.has && now.Sub(s.at) < MinMeterSpan {
		return false
	}
	s.at, s.has = now, true
	return true
}

// meterReading is one reading of the generator's meters: its CPU (cpuOK
// false where it cannot be measured), its host's and its waits for a CPU.
type meterReading struct {
	cpu   float64
	cpuOK bool
	host  proc.HostReading
	stall stall
}

// selfMeters reads the generator's meters for each second collected. A
// second collected less than MinMeterSpan after the previous reading gets
// that reading again: it covered the span since the one before, which the
// seconds a late collector caught up on share, so their CPU is spread over
// that span, not busy time over a few ms.
type selfMeters struct {
	now  func() time.Time
	read func() meterReading
	span MeterSpan
	last meterReading
}

// newSelfMeters starts measuring loadlens's CPU, its host's and its waits
// for a CPU now.
func newSelfMeters() *selfMeters {
	cpu, st := newCPUMeter(), newStallMeter()
	read := func() meterReading {
		cores, ok := cpu.sample()
		return meterReading{cpu: cores, cpuOK: ok, host: cpu.hostReading(), stall: st.sample()}
	}
	return &selfMeters{now: time.Now, read: read}
}

// sample returns the reading for the second being collected.
func (m *selfMeters) sample() meterReading {
	if m.span.Due(m.now()) {
		m.last = m.read()
	}
	return m.last
}
