package dist

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// agentState is what the coordinator knows of one agent during the run.
// The generator's mutex guards it.
type agentState struct {
	*remote
	pending  map[int]*metrics.Snapshot // received, not merged yet
	cpuAt    map[int]float64           // the CPU it reported with each pending second
	stallAt  map[int]stall             // its waits for a CPU it reported with each pending second
	hostAt   map[int]hostCPU           // its host's CPU it reported with each pending second
	quotaAt  map[int]quotaReading      // its own CPU quota it reported with each pending second
	next     int                       // the next second expected: they come in order
	merged   int                       // seconds below this were merged or marked missing
	done     bool                      // it said the load was over
	total    int                       // with done: how many seconds it sent
	lost     bool                      // its connection broke or fell silent before done
	lostAt   int                       // with lost: the first second not received
	lostWhy  string
	lostSeen time.Duration // with lost: how long after the start it was found lost
	heard    time.Time     // when its last second or its done arrived
	missing  []int         // seconds waited for in vain, left out of the merge
	late     int           // seconds that came after they were marked missing, discarded
	inFlight int64         // its requests in flight at its last second
	notes    noticeGate    // its notices kept and left out; its reader's alone
	tally    tally         // its seconds' check runs and drops so far; its reader's alone

	requests, errors, iterations, dropped, notSent int64
	cpuSum, cpuMax                                 float64
	cpuN                                           int
	cpuTime, cpuWall                               float64 // CPU seconds, and the seconds they were measured over (receiveHead)
	lagMax                                         time.Duration
}

// owes reports whether second sec from this agent is still to come: it has
// not arrived, and the agent neither ended before it nor was lost.
func (a *agentState) owes(sec int) bool {
	if _, ok := a.pending[sec]; ok {
		return false
	}
	return !(a.done && sec >= a.total) && !(a.lost && sec >= a.lostAt) && sec >= a.next
}

// stall is an agent's waits for a CPU in one second: its goroutines'
// scheduling latency p99 in seconds and its threads' run-queue wait in
// cores (NaN: not measured).
type stall struct{ p99, wait float64 }

// hostCPU is an agent's host's CPU in one second: cores busy, every
// process counted, of its cpus (0: not sent).
type hostCPU struct {
	busy float64
	cpus int
}

// receiveHead keeps what the agent reported with second h.sec besides its
// CPU, once receive took that second: its waits for a CPU, and how long
// its CPU was measured over, which weighs that CPU in the agent's mean.
func (a *agentState) receiveHead(h secondHead) {
	if _, ok := a.pending[h.sec]; !ok {
		return
	}
	a.stallAt[h.sec] = stall{p99: h.stall, wait: h.wait}
	if h.hostCPUs > 0 {
		a.hostAt[h.sec] = hostCPU{busy: h.hostBusy, cpus: h.hostCPUs}
	}
	if h.quota.cores > 0 {
		a.quotaAt[h.sec] = h.quota
	}
	if !math.IsNaN(h.cpu) && h.cpuWall > 0 {
		a.cpuTime += h.cpu * h.cpuWall
		a.cpuWall += h.cpuWall
	}
}

// receive keeps one second's snapshot and adds it to the agent's figures.
func (a *agentState) receive(sec int, cpu float64, s *metrics.Snapshot) {
	a.next = sec + 1
	if sec < a.merged { // marked missing already: merging it now would change a second already written
		a.late++
		return
	}
	a.pending[sec] = s
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		a.requests += e.Requests
		for k := range e.Failures {
			if sample.Kind(k) != sample.OK {
				a.errors += e.Failures[k]
			}
		}
	}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		a.iterations += sc.Iterations
		a.dropped += sc.Dropped
		a.notSent += sc.NotSent
		if sc.Lag != nil {
			a.lagMax = max(a.lagMax, sc.Lag.Quantile(99))
		}
	}
	if !math.IsNaN(cpu) {
		a.cpuAt[sec] = cpu
		a.cpuSum += cpu
		a.cpuMax = max(a.cpuMax, cpu)
		a.cpuN++
	}
}
