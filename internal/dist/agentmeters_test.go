package dist

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/proc"
)

// TestAgentMetersSpreadCatchUp: an agent that fell behind and sends three
// seconds a few ms apart sends each the CPU over the span since its last
// reading, not busy time over a few ms, and weighs that span once in its
// mean (cpuWall 0 for the repeats).
func TestAgentMetersSpreadCatchUp(t *testing.T) {
	const idle = 0.05
	t0 := time.Unix(1_000_000, 0)
	now, lastAt := t0, t0
	var used, lastUsed time.Duration
	m := &agentMeters{
		now: func() time.Time { return now },
		cpu: func() (float64, time.Duration, bool) { // proc.CPUMeter's arithmetic on the fake clock
			wall, busy := now.Sub(lastAt), used-lastUsed
			lastAt, lastUsed = now, used
			return busy.Seconds() / wall.Seconds(), wall, true
		},
		stall: func() (float64, float64) { return 0.001, 0.01 },
	}
	steps := []struct {
		at   time.Duration
		busy bool // flat out since the previous second: catching up
	}{{1100 * time.Millisecond, false}, {2100 * time.Millisecond, false}, {5 * time.Second, false},
		{5004 * time.Millisecond, true}, {5008 * time.Millisecond, true}, {6100 * time.Millisecond, false}}
	prev := time.Duration(0)
	var cpuTime, cpuWall float64
	for i, s := range steps {
		if s.busy {
			used += s.at - prev
		} else {
			used += time.Duration(idle * float64(s.at-prev))
		}
		now, prev = t0.Add(s.at), s.at
		var h secondHead
		m.read(&h)
		if h.cpu > 2*idle {
			t.Errorf("second %d (sent at %v): %.3f cores, want about %.2f", i, s.at, h.cpu, idle)
		}
		cpuTime += h.cpu * h.cpuWall
		cpuWall += h.cpuWall
	}
	if mean := cpuTime / cpuWall; mean > 2*idle || cpuWall > prev.Seconds()+0.001 {
		t.Errorf("the agent's mean CPU %.3f cores over %.3fs, want about %.2f over at most %v", mean, cpuWall, idle, prev)
	}
}

// TestAgentMetersReadTheHost: each second carries the host's CPU, read as
// the agent's own CPU is, MinMeterSpan apart (a reading over a few ms
// holds no clock tick): a second sent sooner repeats the last; a host
// without /proc/stat sends none.
func TestAgentMetersReadTheHost(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	now, reads := t0, 0
	m := &agentMeters{
		now:   func() time.Time { return now },
		cpu:   func() (float64, time.Duration, bool) { return 0.1, time.Second, true },
		stall: func() (float64, float64) { return 0.001, 0.01 },
		host: func() proc.HostReading {
			reads++
			return proc.HostReading{Busy: float64(reads) / 2, CPUs: 2, OK: reads < 3}
		},
	}
	for i, s := range []struct {
		at   time.Duration
		busy float64
		cpus int
	}{{time.Second, 0.5, 2}, {1004 * time.Millisecond, 0.5, 2}, {2 * time.Second, 1, 2}, {3 * time.Second, 0, 0}} {
		now = t0.Add(s.at)
		var h secondHead
		m.read(&h)
		if h.hostBusy != s.busy || h.hostCPUs != s.cpus {
			t.Errorf("second %d (at %v): host %v of %d CPUs, want %v of %d", i, s.at, h.hostBusy, h.hostCPUs, s.busy, s.cpus)
		}
	}
	if reads != 3 {
		t.Errorf("the host was read %d times for 3 seconds due, want 3", reads)
	}
}
