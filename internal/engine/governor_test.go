package engine

import (
	"strings"
	"testing"
	"time"
)

// served is a pool state in which done iterations of service time w each
// have completed by now, and busy VUs have been in theirs for age on average.
func served(now time.Duration, rate float64, allocated, busy int64, age, w time.Duration) poolState {
	const done = 1000
	return poolState{now: now, rate: rate, allocated: allocated, busy: busy,
		busySum: busy * int64(now-age), done: done, doneSum: done * int64(w)}
}

func TestPoolGovernor(t *testing.T) {
	const now = 5 * time.Second
	cases := []struct {
		name    string
		gov     poolGovernor
		state   poolState
		allowed bool
		why     holdReason
		held    int64
	}{
		{"below the prepared VUs, always", poolGovernor{maxVUs: 5000, floor: 100},
			served(now, 20000, 50, 50, 0, 100*time.Microsecond), true, heldNot, 0},
		{"max_vus", poolGovernor{maxVUs: 100, floor: 10},
			served(now, 5000, 100, 100, time.Second, time.Second), false, heldMaxVUs, 100},
		{"the open-file limit", poolGovernor{maxVUs: 100000, files: 18750, floor: 1024},
			served(now, 5000, 18750, 18750, 10*time.Second, 10*time.Second), false, heldFiles, 18750},
		{"a fast target at a high rate: 2 × 20,000/s × 0.2ms + at most 1,024 for a pause + 8 = 1,040", poolGovernor{maxVUs: 600000, floor: 1024},
			served(now, 20000, 1040, 1040, 100*time.Microsecond, 200*time.Microsecond), false, heldLatency, 1040},
		{"one fewer grows", poolGovernor{maxVUs: 600000, floor: 1024},
			served(now, 20000, 1039, 1039, 100*time.Microsecond, 200*time.Microsecond), true, heldNot, 0},
		{"a slow target: rate × service time", poolGovernor{maxVUs: 600000, floor: 1024},
			served(now, 5000, 1024, 1024, 500*time.Millisecond, time.Second), true, heldNot, 0},
		{"Little's law with headroom: 2 × 1000/s × (100ms + 100ms pause) + 8 = 408 VUs", poolGovernor{maxVUs: 600000, floor: 10},
			served(now, 1000, 408, 408, 50*time.Millisecond, 100*time.Millisecond), false, heldLatency, 408},
		{"one VU fewer than that grows", poolGovernor{maxVUs: 600000, floor: 10},
			served(now, 1000, 407, 407, 50*time.Millisecond, 100*time.Millisecond), true, heldNot, 0},
		{"a late scheduler: the arrivals due at once need VUs for the lateness too (2 × 200/s × (0.2ms + 50ms + 100ms) + 8 = 69)", poolGovernor{maxVUs: 200, floor: 10},
			func() poolState {
				s := served(now, 200, 68, 68, 100*time.Microsecond, 200*time.Microsecond)
				s.late = 50 * time.Millisecond
				return s
			}(), true, heldNot, 0},
		{"and no more", poolGovernor{maxVUs: 200, floor: 10},
			func() poolState {
				s := served(now, 200, 69, 69, 100*time.Microsecond, 200*time.Microsecond)
				s.late = 50 * time.Millisecond
				return s
			}(), false, heldLatency, 69},
		{"a target that stalls: nothing completes lately, but the busy VUs age", poolGovernor{maxVUs: 600000, floor: 1024},
			served(now, 5000, 1024, 1024, 2*time.Second, time.Millisecond), true, heldNot, 0},
		{"a generator that uses its CPU up", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 80000, 100, 100, 20*time.Millisecond, 40*time.Millisecond)
				s.cpu, s.late = 0.97, 20*time.Millisecond
				return s
			}(), false, heldCPU, 100},
		{"a starved generator: behind for a second, its goroutines waiting for a CPU", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 80000, 100, 100, 20*time.Millisecond, 40*time.Millisecond)
				s.sched, s.late, s.behind = 5*time.Millisecond, 20*time.Millisecond, 1500*time.Millisecond
				return s
			}(), false, heldCPU, 100},
		{"a starved generator: behind for a second, its threads asking for more CPU than they get", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 80000, 100, 100, 20*time.Millisecond, 40*time.Millisecond)
				s.cpu, s.asked, s.late, s.behind = 0.4, 1.3, 20*time.Millisecond, 1500*time.Millisecond
				return s
			}(), false, heldCPU, 100},
		{"a quarter of the busy VUs wait for a CPU, not for the target", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 80000, 400, 400, 20*time.Millisecond, 40*time.Millisecond)
				s.runnable = 100
				return s
			}(), false, heldRunnable, 400},
		{"late, starved, and VUs queueing for a CPU", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 80000, 2000, 2000, 20*time.Millisecond, 40*time.Millisecond)
				s.runnable, s.late, s.cpu, s.asked = 200, 50*time.Millisecond, 0.15, 1.3
				return s
			}(), false, heldRunnable, 2000},
		{"a few runnable goroutines are not a queue", poolGovernor{maxVUs: 600000, floor: 10},
			func() poolState {
				s := served(now, 1000, 200, 200, 50*time.Millisecond, 100*time.Millisecond)
				s.runnable = 40
				return s
			}(), true, heldNot, 0},
		{"a busy host, a small pool and the arrival on time: the pool grows", poolGovernor{maxVUs: 600000, floor: 1},
			func() poolState {
				s := served(now, 100, 3, 3, 50*time.Millisecond, 100*time.Millisecond)
				s.cpu, s.asked, s.sched, s.late = 0.97, 1.5, 5*time.Millisecond, time.Millisecond
				return s
			}(), true, heldNot, 0},
		{"a host busy with a slow target, loadlens on time: the pool grows", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 200, 300, 300, time.Second, 2*time.Second)
				s.cpu, s.asked, s.sched, s.late = 0.05, 1.26, 5*time.Millisecond, 3*time.Millisecond
				return s
			}(), true, heldNot, 0},
		{"a busy host, loadlens 30ms behind for 1.5s, its VUs held 2s each by a slow target: the target's queue, the pool grows", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 120, 300, 300, time.Second, 2*time.Second)
				s.cpu, s.asked, s.sched, s.late, s.behind = 0.02, 0.3, 5*time.Millisecond, 30*time.Millisecond, 1500*time.Millisecond
				return s
			}(), true, heldNot, 0},
		{"and its threads asking for more CPU than they get, 30ms behind beside a 2s target", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 120, 300, 300, time.Second, 2*time.Second)
				s.cpu, s.asked, s.late, s.behind = 0.4, 1.3, 30*time.Millisecond, 1500*time.Millisecond
				return s
			}(), true, heldNot, 0},
		{"the same delay beside a 100ms target is the generator's", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 120, 300, 300, 50*time.Millisecond, 100*time.Millisecond)
				s.cpu, s.asked, s.sched, s.late, s.behind = 0.02, 0.3, 5*time.Millisecond, 30*time.Millisecond, 1500*time.Millisecond
				return s
			}(), false, heldCPU, 300},
		{"a generator behind for a second and more", poolGovernor{maxVUs: 600000, floor: 100},
			func() poolState {
				s := served(now, 80000, 100, 100, 20*time.Millisecond, 40*time.Millisecond)
				s.late, s.behind = 300*time.Millisecond, 2*time.Second
				return s
			}(), false, heldBehind, 100},
		{"one pause is not being behind", poolGovernor{maxVUs: 600000, floor: 10},
			func() poolState {
				s := served(now, 200, 10, 10, 190*time.Millisecond, time.Millisecond)
				s.late, s.behind = 190*time.Millisecond, 190*time.Millisecond
				return s
			}(), true, heldNot, 0},
		{"late by less than a service time is not behind", poolGovernor{maxVUs: 600000, floor: 10},
			func() poolState {
				s := served(now, 100, 10, 10, time.Second, 2*time.Second)
				s.late, s.behind = 500*time.Millisecond, 3*time.Second
				return s
			}(), true, heldNot, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.gov
			ok, held, why := g.allow(c.state)
			if ok != c.allowed || why != c.why || held != c.held {
				t.Fatalf("allow = %v, held at %d by %q; want %v, %d, %q", ok, held, why, c.allowed, c.held, c.why)
			}
			if !ok && !strings.Contains(g.explain(why, held, c.state), "held at ") {
				t.Fatalf("explain: %q", g.explain(why, held, c.state))
			}
		})
	}
}

// TestPoolGovernorDoesNotRunAway drives the policy with a generator that
// gets one core (of its own, or what other processes leave it) for twice
// the work it can do: each iteration's service time is its VU's wait for
// the CPU, which grows with the VUs in use, so Little's law alone would
// grow the pool without end (the collapse of issue 11). The CPU it uses
// or waits for must hold it.
func TestPoolGovernorDoesNotRunAway(t *testing.T) {
	const (
		rate = 80000.0
		cpu  = 25 * time.Microsecond // per iteration: 40,000/s on one core
		step = time.Millisecond
	)
	g := poolGovernor{maxVUs: 600000, files: 18750, floor: 100}
	allocated, busy := int64(100), int64(100)
	var done, doneSum int64
	at := time.Unix(0, 0)
	late := time.Duration(0)
	for now := step; now < 10*time.Second; now += step {
		w := time.Duration(busy) * cpu // processor sharing: every busy VU waits for all the others
		done += int64(step / cpu)
		doneSum += int64(step/cpu) * int64(w)
		late += step / 2 // the schedule asks for twice what the core serves
		behind := g.track(at.Add(now-late), late)
		share := -1.0 // unknown in the first window
		if now >= cpuEvery {
			share = 1 // used
		}
		s := poolState{now: now, late: late, behind: behind, rate: rate, cpu: share, allocated: allocated, busy: busy,
			busySum: busy * int64(now-w/2), done: done, doneSum: doneSum}
		for range 50 { // the arrivals that find no VU idle in this millisecond
			ok, _, _ := g.allow(s)
			if !ok {
				break
			}
			allocated++
			busy++
			s.allocated, s.busy = allocated, busy
		}
	}
	if allocated > 5000 {
		t.Fatalf("the pool grew to %d VUs for a generator that can serve 40,000/s", allocated)
	}
	ok, held, why := g.allow(poolState{now: 10 * time.Second, late: late, behind: g.track(at.Add(10*time.Second-late), late),
		rate: rate, cpu: 1, allocated: allocated, busy: busy, busySum: busy * int64(10*time.Second), done: done, doneSum: doneSum})
	if ok || why != heldCPU {
		t.Fatalf("at the end: allow = %v, held at %d by %q; want held by %q", ok, held, why, heldCPU)
	}
	t.Logf("the pool stayed at %d VUs", allocated)
}

// TestPoolGovernorGrowsForAStalledTarget: a target that stops answering
// shows as latency, not as drops: every arrival finds a VU while the busy
// ones age, up to max_vus.
func TestPoolGovernorGrowsForAStalledTarget(t *testing.T) {
	const rate, step = 5000, time.Millisecond
	g := poolGovernor{maxVUs: 50000, files: 18750, floor: 1024}
	var allocated, busy, busySum, drops int64
	allocated = 1024
	for now := step; now <= 3*time.Second; now += step {
		for range rate / 1000 {
			if busy < allocated { // an idle VU takes it
				busy++
				busySum += int64(now)
				continue
			}
			s := poolState{now: now, rate: rate, cpu: 0.1, allocated: allocated, busy: busy, busySum: busySum}
			if ok, held, why := g.allow(s); !ok {
				drops++
				if drops == 1 {
					t.Logf("first drop at %v: held at %d by %q", now, held, why)
				}
				continue
			}
			allocated++
			busy++
			busySum += int64(now)
		}
	}
	if drops != 0 || busy != 15000 {
		t.Fatalf("%d arrivals dropped, %d VUs busy; want 0 and all 15,000", drops, busy)
	}
}

// TestExplainGroupsThePoolSize: the size the pool was held at is a count, grouped.
func TestExplainGroupsThePoolSize(t *testing.T) {
	g := poolGovernor{maxVUs: 1711}
	if got := g.explain(heldMaxVUs, 1711, poolState{}); got != "the VU pool was held at 1,711 by max_vus" {
		t.Fatalf("explain: %q", got)
	}
}

// TestExplainRunnableIsNotAPartOfTheBusyVUs: the runnable goroutines are
// the whole process's, so they may outnumber the scenario's busy VUs (a
// run printed "657 of its 319 busy VUs waited"); the note counts each
// for what it is.
func TestExplainRunnableIsNotAPartOfTheBusyVUs(t *testing.T) {
	g := poolGovernor{maxVUs: 600000}
	tests := []struct {
		runnable, busy int64
		want           string
	}{
		{657, 319, "held at 400 because 657 goroutines of loadlens waited for a CPU while 319 VUs were busy: "},
		{40, 160, "because 40 goroutines of loadlens waited for a CPU while 160 VUs were busy: "},
		{1200, 1, "because 1,200 goroutines of loadlens waited for a CPU while 1 VU was busy: "},
	}
	for _, tc := range tests {
		got := g.explain(heldRunnable, 400, poolState{runnable: tc.runnable, busy: tc.busy})
		if !strings.Contains(got, tc.want) || strings.Contains(got, " of its ") {
			t.Errorf("explain(%d runnable, %d busy) = %q, want %q", tc.runnable, tc.busy, got, tc.want)
		}
	}
}
