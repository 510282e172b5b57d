package engine

import (
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// The open-model pool policy's constants. Headroom doubles what Little's
// law asks for, so a target whose latency wobbles still finds VUs; the
// slack keeps a low rate from being held to one or two VUs. A generator
// that uses busyCPU of its cores (while it is late, or has more than a
// small pool), whose VUs queue for a CPU (a quarter of the busy ones
// runnable, or manyRunnable while its threads ran or waited to run
// busyAsked of its cores), or that has been late for behindFor while its threads ask for
// more CPU than they get (or its goroutines wait busySched for one) and
// loses ownShare of the target's service time or more, is itself the limit: more VUs would only queue for the same CPU, each
// with a new connection, and make it later still; and the service times
// it measures then grow with the VUs waiting, which Little's law would
// answer with still more. One pause (a GC, the host taking the CPU away
// for a moment) is not that, nor is a busy host while loadlens keeps its
// schedule or loses little beside the target's latency: the VUs of a slow
// target are the target's queue, and it needs them.
const (
	poolHeadroom = 2.0
	poolSlack    = 8
	// poolSlackTime is added to the service time: the arrivals of a pause
	// this long (a GC, the host taking the CPU away) come due together and
	// need VUs together, even when the target answers in microseconds
	poolSlackTime = 100 * time.Millisecond
	burstVUs      = 1024 // at most this many VUs for such a burst
	smallPool     = 64   // VUs that cost nothing: a busy host does not hold a pool this small while it is on time
	manyRunnable  = 32   // goroutines waiting for a CPU: with a quarter of the busy VUs among them, the generator is the queue
	busyCPU       = 0.8
	busyAsked     = 0.9                  // of its cores, its threads ran or waited to run
	busySched     = 2 * time.Millisecond // the 90th percentile wait of a runnable goroutine for a CPU over schedEvery (a generator with CPU to spare: under 0.1 ms)
	// ownShare: a scheduler behind on a busy host whose own delay (its
	// lateness, its goroutines' wait for a CPU) is under this share of the
	// time the target keeps each VU does not hold the pool: the VUs wait
	// for the target (a pool of 2 connections, 20 ms each, at twice its
	// rate: 5 s), not for a CPU, and a parked VU costs no CPU
	ownShare     = 0.1
	schedEvery   = 100 * time.Millisecond
	lateFloor    = 10 * time.Millisecond
	behindFor    = time.Second
	serviceEvery = 100 * time.Millisecond // how often the completed iterations' service time is re-averaged
	growEvery    = 100 * time.Millisecond // the pool at most doubles in this long, before the CPU is known
)

// holdReason says why an open-model scenario's VU pool did not grow.
type holdReason uint8

// The reasons a pool is held, in the order the policy checks them.
const (
	heldNot      holdReason = iota // the pool grew
	heldMaxVUs                     // max_vus (or its share of it)
	heldFiles                      // the process's open-file limit
	heldCPU                        // the generator's CPU was used up
	heldRunnable                   // loadlens's goroutines queued for a CPU: as many as a quarter of the busy VUs, or manyRunnable
	heldBehind                     // the generator was behind its schedule
	heldLatency                    // Little's law on the target's service time
	heldGrowth                     // the pool may at most double every growEvery
	heldEnded                      // not the pool: the schedule ended before the arrivals could start
)

// String returns the reason's stable name, as sample.Gauge.HeldBy carries it.
func (r holdReason) String() string {
	switch r {
	case heldMaxVUs:
		return "max_vus"
	case heldFiles:
		return "open_files"
	case heldCPU, heldRunnable:
		return "generator_cpu"
	case heldBehind:
		return "generator_behind"
	case heldLatency:
		return "latency"
	case heldGrowth:
		return "growth"
	case heldEnded:
		return "schedule_end"
	}
	return ""
}

// poolGovernor decides whether an open-model scenario may create one more
// VU for an arrival that found none idle. The pool grows only as far as
// the target's latency explains (Little's law: VUs in use = rate × service
// time, with headroom), never past max_vus or the file limit, and not at
// all while the generator is behind its schedule. An arrival it refuses is
// dropped and counted: a generator at its limit degrades like a capped
// pool instead of collapsing under VUs and connections it cannot serve.
// It is not safe for concurrent use; the scheduler goroutine owns it.
type poolGovernor struct {
	maxVUs int64 // max_vus's share
	files  int64 // VUs the open-file limit leaves room for; 0: no limit known
	floor  int64 // always allowed: the VUs prepared before the start
	fds    fdWatch

	behindSince time.Time // the intended start of the first of the late arrivals in a row; zero: on time

	growAt   time.Duration // the start of the current growth window
	growBase int64         // the VUs allocated then

	// the mean service time of iterations completed in the last window
	lastAt            time.Duration
	lastDone, lastSum int64
	service           time.Duration
}

// poolState is what the governor reads when an arrival finds no VU idle.
type poolState struct {
	now       time.Duration // offset from the run's start
	late      time.Duration // how late the arrival is
	behind    time.Duration // how long the scheduler has been late without a break (see track)
	cpu       float64       // the share of its cores the process used lately; negative: unknown
	asked     float64       // that plus the time its threads waited for a CPU; negative: unknown
	runnable  int64         // goroutines ready to run but not running now; negative: unknown
	sched     time.Duration // the 90th percentile wait of a runnable goroutine for a CPU lately; negative: unknown
	rate      float64       // the scenario's arrivals per second now
	allocated int64         // VUs that exist
	busy      int64         // VUs in an iteration
	busySum   int64         // the sum of the busy iterations' start offsets, in ns
	done      int64         // iterations completed so far
	doneSum   int64         // the sum of their service times, in ns
}

// allow reports whether one more VU may be created, and if not the size
// the pool is held at and why.
func (g *poolGovernor) allow(s poolState) (ok bool, held int64, why holdReason) {
	if s.allocated >= g.maxVUs {
		return false, g.maxVUs, heldMaxVUs
	}
	if g.files > 0 && s.allocated >= g.files {
		return false, g.files, heldFiles
	}
	if g.fds.full(s.now, s.allocated) {
		return false, s.allocated, heldFiles
	}
	w := g.serviceTime(s)
	if s.allocated < g.floor {
		return true, 0, heldNot
	}
	if s.cpu >= busyCPU && (s.late > lateFloor || s.allocated >= smallPool) {
		return false, s.allocated, heldCPU
	}
	if s.runnable >= max(manyRunnable, s.busy/4) || s.runnable >= manyRunnable && s.asked >= busyAsked {
		return false, s.allocated, heldRunnable
	}
	if s.behind >= behindFor && (s.asked >= busyCPU || s.sched >= busySched) && ownDelay(s) >= ownShare*float64(w) {
		return false, s.allocated, heldCPU
	}
	if s.behind >= behindFor && s.late > max(lateFloor, w) {
		return false, s.allocated, heldBehind
	}
	// arrivals the scheduler found late all came due at once, and each
	// keeps a VU for w: the pool they need covers the lateness too
	if need := g.littleCap(s.rate, w, max(s.late, 0)+poolSlackTime); s.allocated >= need {
		return false, s.allocated, heldLatency
	}
	if s.now-g.growAt >= growEvery || g.growBase == 0 {
		g.growAt, g.growBase = s.now, s.allocated
	}
	if s.allocated >= 2*g.growBase+poolSlack {
		return false, s.allocated, heldGrowth
	}
	return true, 0, heldNot
}

// ownDelay is what the generator itself added to an iteration lately: how
// late its arrival started, or how long its goroutines waited for a CPU.
func ownDelay(s poolState) float64 {
	return float64(max(s.late, s.sched))
}

// track notes how late the arrival due at was started, and returns how long
// the scheduler has been later than lateFloor without a break.
func (g *poolGovernor) track(at time.Time, late time.Duration) time.Duration {
	if late <= lateFloor {
		g.behindSince = time.Time{}
		return 0
	}
	if g.behindSince.IsZero() {
		g.behindSince = at
	}
	return at.Add(late).Sub(g.behindSince)
}

// serviceTime estimates how long an iteration keeps its VU: the mean of
// the iterations completed lately, or twice the mean age of those still
// running when that is longer (a target that stalls has completed nothing
// lately; in a steady pool the ages are spread evenly up to the service
// time, so twice their mean is the service time).
func (g *poolGovernor) serviceTime(s poolState) time.Duration {
	if s.now-g.lastAt >= serviceEvery && s.done > g.lastDone {
		g.service = time.Duration((s.doneSum - g.lastSum) / (s.done - g.lastDone))
		g.lastAt, g.lastDone, g.lastSum = s.now, s.done, s.doneSum
	}
	w := g.service
	if s.busy > 0 {
		age := max(s.now-time.Duration(s.busySum/s.busy), 0) // the two counters are read apart
		w = max(w, 2*age)
	}
	return w
}

// littleCap is the pool Little's law explains at rate and service time w,
// with headroom, plus the VUs for a burst: the arrivals of a pause or of a
// late scheduler (burst long), which came due at once, at most burstVUs of
// them (at 1e6/s a 100 ms pause is 100,000 arrivals: those are dropped).
func (g *poolGovernor) littleCap(rate float64, w, burst time.Duration) int64 {
	need := poolHeadroom*rate*w.Seconds() + min(poolHeadroom*rate*burst.Seconds(), burstVUs)
	if need > float64(math.MaxInt64/2) {
		return math.MaxInt64 / 2
	}
	return max(g.floor, int64(math.Ceil(need))+poolSlack)
}

// explain says in words why the pool was held at held.
func (g *poolGovernor) explain(why holdReason, held int64, s poolState) string {
	n := units.Count(held)
	switch why {
	case heldMaxVUs:
		return "the VU pool was held at " + n + " by max_vus"
	case heldFiles:
		return "the VU pool was held at " + n + " by the process's open-file limit (each VU holds a connection)"
	case heldCPU:
		cores := units.CountOf(int64(runtime.GOMAXPROCS(0)), "core", "cores")
		if s.cpu >= busyCPU {
			return "the VU pool was held at " + n + " because loadlens had no CPU to spare (it used " +
				strconv.Itoa(int(math.Round(100*s.cpu))) + " % of its " + cores + "): more VUs would only wait for the same CPU"
		}
		if s.asked >= busyCPU {
			return "the VU pool was held at " + n + " because loadlens got less CPU than it asked for (behind its schedule for " +
				roundDuration(s.behind).String() + ", its threads ran or waited to run " + strconv.Itoa(int(math.Round(100*s.asked))) +
				" % of the time of its " + cores + "): more VUs would only wait for the same CPU"
		}
		return "the VU pool was held at " + n + " because loadlens's VUs waited " + roundDuration(s.sched).String() +
			" (90th percentile) for a CPU: more VUs would only wait longer"
	case heldRunnable:
		// runnable counts every goroutine of the process ready to run (connections', the
		// collector's, other scenarios'), read apart from busy: not a part of the busy VUs
		return "the VU pool was held at " + n + " because " + units.CountOf(s.runnable, "goroutine", "goroutines") +
			" of loadlens waited for a CPU while " + units.CountOf(s.busy, "VU was", "VUs were") +
			" busy: the generator was the queue, not the target, and more VUs would only wait for the same CPU"
	case heldBehind:
		return "the VU pool was held at " + n + " because loadlens itself had been behind its schedule for " +
			roundDuration(s.behind).String() + " (arrivals " + roundDuration(s.late).String() + " late): more VUs would only wait for the same CPU"
	}
	if why == heldEnded {
		return "loadlens was still behind its schedule when it ended (arrivals " + roundDuration(s.late).String() + " late)"
	}
	if why == heldGrowth {
		return "the VU pool was held at " + n + " for a moment: it at most doubles every " + growEvery.String()
	}
	w := g.serviceTime(s)
	return "the VU pool was held at " + n + ", what the target's latency explains (Little's law: " +
		strconv.FormatFloat(s.rate, 'f', -1, 64) + "/s × " + roundDuration(w).String() + " × " +
		strconv.FormatFloat(poolHeadroom, 'f', -1, 64) + " headroom, and VUs for the arrivals of a " +
		roundDuration(max(s.late, 0)+poolSlackTime).String() + " pause)"
}

// roundDuration keeps three significant digits of d, for messages.
func roundDuration(d time.Duration) time.Duration {
	for r := time.Duration(1); r < time.Hour; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
	return d.Round(time.Second)
}
