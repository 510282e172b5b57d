package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// startMargin is how far ahead the agreed start is set: time for the start
// message to reach every agent, with room for a slow one.
const startMargin = 1500 * time.Millisecond

// stopWait bounds how long agents asked to stop may take to say they did:
// their graceful stop, with room.
const stopWait = 30 * time.Second

// generator is the agents seen as one load generator (app.Generator): it
// starts them, reads their seconds and merges each second once every agent
// still running has sent it, or its wait is over.
type generator struct {
	plan    *plan.Plan
	wait    time.Duration // how long a late second is waited for
	silence time.Duration // an agent quiet this long is lost
	last    int           // the seconds an agent may send: lastSecond
	agents  []*agentState
	// hostname is this host's name, which an agent on it says too (SameHost).
	hostname string
	start    time.Time
	notify   func(string)
	tap      func(agent string, snap []byte)
	missed   func(agent string, sec int)
	onSec    func(Progress) // Config.Progress; nil: none
	// stopping is set before the agents are asked to stop: an agent ending
	// early after it did as it was asked, not lost.
	stopping atomic.Bool

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced whenever an agent's state changes
	seconds  int           // the most seconds any agent sent
	cutAt    time.Duration // with stopping: how long after the start the agents were asked to stop
	busy     busiest       // the busiest agent in the second merged last
	stalled  stall         // the agent whose goroutines waited longest in that second; NaN: none said
	perSec   int           // the second perAgent is of
	perAg    series.Set    // each agent's figures in the second merged last
	progress Progress      // the totals onSec is given
	// counted is the sum of every count of every second taken
	// (Snapshot.AddCounts): while it is an int64, no merge of them overflows.
	counted int64
}

// busiest is the agent whose CPU was the largest share of its cores in one second.
type busiest struct {
	sec        int
	cpu, cores float64
	ok         bool
}

func newGenerator(p *plan.Plan, remotes []*remote, wait time.Duration) *generator {
	g := &generator{plan: p, wait: wait, silence: DefaultSilence, last: lastSecond(p), changed: make(chan struct{})}
	g.hostname, _ = os.Hostname() // "": unknown, and no agent is known to be on this host
	for _, r := range remotes {
		g.agents = append(g.agents, &agentState{remote: r, pending: map[int]*metrics.Snapshot{}, cpuAt: map[int]float64{},
			stallAt: map[int]stall{}, hostAt: map[int]hostCPU{}, quotaAt: map[int]quotaReading{}, lostAt: -1})
	}
	return g
}

// Start sets the agreed instant and sends it to every agent on its own
// clock: our instant plus its offset.
func (g *generator) Start(now time.Time, notify func(string)) time.Time {
	g.notify = notify
	g.start = now.Add(startMargin)
	for _, a := range g.agents {
		at := g.start.Add(a.offset)
		if err := a.c.send(kindStart, start{AtNanos: at.UnixNano()}); err != nil {
			g.lose(a, fmt.Sprintf("could not be started: %v", err))
		}
	}
	return g.start
}

// Run reads every agent until each has ended or is lost. When ctx ends
// (Ctrl-C, abort_on_fail) it asks them all to stop and waits, within
// stopWait, for them to end.
func (g *generator) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, a := range g.agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.read(a)
		}()
	}
	beats := time.NewTicker(beatEvery)
	defer beats.Stop()
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	var giveUp <-chan time.Time
	stopping := ctx.Done()
	for {
		select {
		case <-all:
			return nil
		case <-beats.C:
			for _, a := range g.agents {
				_ = a.c.send(kindBeat, nil) // a broken connection shows in read
			}
		case <-stopping:
			stopping = nil
			g.update(func() { g.cutAt = max(0, time.Since(g.start)) })
			g.stopping.Store(true)
			why := "the run was interrupted"
			if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
				why = c.Error()
			}
			for _, a := range g.agents {
				_ = a.c.send(kindStop, stop{Reason: why})
			}
			t := time.NewTimer(stopWait)
			defer t.Stop()
			giveUp = t.C
		case <-giveUp:
			for _, a := range g.agents {
				_ = a.nc.Close() // its read fails, and it is marked lost
			}
			giveUp = nil
		}
	}
}

// read takes one agent's frames until it ends or is lost.
func (g *generator) read(a *agentState) {
	defer a.nc.Close()
	defer g.noticesLeft(a)
	for {
		_ = a.nc.SetReadDeadline(time.Now().Add(max(g.silence, time.Until(g.start)+g.silence)))
		f, err := a.c.read()
		if err != nil {
			g.lose(a, lostReason(err))
			return
		}
		switch f.kind {
		case kindSecond:
			if why := g.takeSecond(a, f.body); why != "" {
				g.lose(a, why)
				return
			}
		case kindNotice:
			g.takeNotice(a, f.body)
		case kindDone:
			g.takeDone(a, f.body)
			return
		case kindBeat:
		default:
			g.lose(a, fmt.Sprintf("sent an unexpected %q frame", f.kind))
			return
		}
	}
}

// takeSecond keeps one second an agent sent; it says why the agent is
// lost instead when the second is corrupt, out of the test's length
// (a tampered second number would stretch the run without end), out of
// order, more than the agent could have measured (refuseSecond, badHost), or counts
// that would take the run's past int64 (a tampered 2^62 requests a second
// wrapped its totals negative, and the run passed).
func (g *generator) takeSecond(a *agentState, b []byte) (lostWhy string) {
	head, body, err := parseSecondFrame(b)
	sec := head.sec
	switch {
	case err != nil:
	case sec >= g.last:
		return fmt.Sprintf("sent a bad second %d (the test has %d: its load and graceful stops, and %s of margin)", sec, g.last, secondMargin)
	case sec != a.next: // the reader alone changes next: no lock needed to read it
		return fmt.Sprintf("sent a bad second %d (second %d was due)", sec, a.next)
	case early(sec, time.Since(g.start)):
		return fmt.Sprintf("sent a bad second %d at %s, before it could have been measured", sec, units.Clock(int(max(0, time.Since(g.start))/time.Second)))
	}
	var snap metrics.Snapshot
	if err == nil {
		err = snap.UnmarshalBinary(body)
	}
	if err == nil {
		err = snap.CheckLayout(g.plan.Layout)
	}
	if err == nil && sec != snap.Second {
		err = fmt.Errorf("second %d carries the snapshot of second %d", sec, snap.Second)
	}
	if err == nil {
		err = refuseSecond(g.plan, a.seg, &a.tally, &snap)
	}
	if why := badHost(head) + badQuota(head); err == nil && why != "" {
		err = errors.New(why)
	}
	if err != nil {
		return "sent a bad second: " + err.Error()
	}
	clipMessages(&snap) // the run keeps some, and prints them
	g.update(func() {
		if g.counted, err = snap.AddCounts(g.counted, g.plan.Layout); err != nil {
			return
		}
		if g.tap != nil {
			g.tap(a.name, body)
		}
		a.heard = time.Now()
		a.receive(sec, head.cpu, &snap)
		a.receiveHead(head)
		a.inFlight = head.inFlight
		g.seconds = max(g.seconds, sec+1)
	})
	if err != nil {
		return "sent a bad second: " + err.Error()
	}
	return ""
}

// takeNotice passes on an agent's notice, cut to maxNoticeText, unless it
// has had its share of them (noticeGate).
func (g *generator) takeNotice(a *agentState, b []byte) {
	var n notice
	_ = json.Unmarshal(b, &n)
	if a.notes.admit(int(max(0, time.Since(g.start)) / time.Second)) {
		g.notify(a.name + ": " + clip(n.Text, maxNoticeText))
	}
}

// noticesLeft says, once, how many of an agent's notices were not shown.
func (g *generator) noticesLeft(a *agentState) {
	if n := a.notes.left; n > 0 {
		g.notify(fmt.Sprintf("%s from %s (%s) left out: at most %d a second and %d a run are shown of each agent",
			units.CountOf(int64(n), "more notice", "more notices"), a.name, a.addr, noticesPerSecond, noticesPerRun))
	}
}

// takeDone ends an agent's load: done, or lost when it ended early or its
// end claims seconds that did not all arrive.
func (g *generator) takeDone(a *agentState, b []byte) {
	var d done
	_ = json.Unmarshal(b, &d)
	why := g.endedEarly(d)
	if why == "" && d.Seconds != a.next {
		why = fmt.Sprintf("it said it sent %s, but %s arrived", units.CountOf(int64(d.Seconds), "second", "seconds"), units.CountOf(int64(a.next), "second", "seconds"))
	}
	if why != "" {
		g.update(func() { a.heard = time.Now() })
		g.lose(a, why) // as if killed: its planned load after its last second is lost
		return
	}
	if d.Error != "" {
		g.notify(fmt.Sprintf("%s (%s) ended with an error: %s", a.name, a.addr, clip(d.Error, maxNoticeText)))
	}
	g.update(func() { a.done, a.total, a.heard = true, d.Seconds, time.Now() })
}

// endedEarly says why an agent's end is a loss: it stopped itself (a
// signal), failed, or ended before the planned load's end, unasked; "" when
// it ran its course or did as the coordinator asked.
func (g *generator) endedEarly(d done) string {
	switch {
	case d.Stopped != "":
		return "it stopped itself (" + d.Stopped + ")"
	case g.stopping.Load():
		return ""
	case d.Error != "":
		return "it ended with an error (" + d.Error + ")"
	}
	if length := plannedLength(g.plan); length > 0 && time.Duration(d.Seconds)*time.Second < length {
		return fmt.Sprintf("it ended after %s, before the planned %s", units.CountOf(int64(d.Seconds), "second", "seconds"), units.Duration(length))
	}
	return ""
}

// lostReason words why an agent's connection ended.
func lostReason(err error) string {
	if big, ok := errors.AsType[*oversizeError](err); ok {
		return big.tooBig()
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Sprintf("it fell silent for %s", units.Duration(DefaultSilence))
	}
	return fmt.Sprintf("its connection ended (%v)", err)
}

// lose marks an agent lost from the next second it owed.
func (g *generator) lose(a *agentState, why string) {
	left, was := 0, false // the agents still running after this one; whether it was lost or done already
	g.update(func() {
		if a.lost || a.done {
			was = true
			return
		}
		a.lost, a.lostAt, a.lostWhy, a.lostSeen = true, a.next, why, max(0, time.Since(g.start))
		for _, o := range g.agents {
			if !o.lost && !o.done {
				left++
			}
		}
	})
	if was {
		return // said once
	}
	g.notify(fmt.Sprintf("%s (%s) was lost at %s: %s; %s", a.name, a.addr, units.Clock(a.next), why, goesOn(left)))
}

// goesOn says what the run does after losing an agent, with left agents
// still running: with none, it ends.
func goesOn(left int) string {
	if left == 0 {
		return "no agent is left, so the run ends"
	}
	return "the run goes on with " + units.CountOf(int64(left), "other agent", "other agents")
}

// update changes agent state under the lock and wakes whoever waits on it.
func (g *generator) update(f func()) {
	g.mu.Lock()
	f()
	close(g.changed)
	g.changed = make(chan struct{})
	g.mu.Unlock()
}

// Second merges second sec of every agent. It waits until no agent still
// owes it, or until the second's wait is over; an agent that has not sent
// it by then has it marked missing (the report says so), not merged as zero.
func (g *generator) Second(sec int) *metrics.Snapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.settle(sec)
	snap := metrics.NewSnapshot(sec, g.plan.Layout)
	g.busy = busiest{sec: sec}
	g.stalled = stall{p99: math.NaN(), wait: math.NaN()}
	g.perSec, g.perAg = sec, nil
	for _, a := range g.agents {
		if s, ok := a.pending[sec]; ok {
			snap.Merge(s)
			delete(a.pending, sec)
			cpu, measured := a.cpuAt[sec]
			if !measured {
				cpu = math.NaN()
			}
			st, said := a.stallAt[sec]
			if !said {
				st = stall{p99: math.NaN(), wait: math.NaN()}
			}
			g.perAg = append(g.perAg, agentSeries(g.plan, a, sec, s, cpu, st)...)
			g.perAg = append(g.perAg, agentHostSeries(a, sec, a.hostAt[sec])...)
			delete(a.hostAt, sec)
			g.perAg = append(g.perAg, agentQuotaSeries(a, sec, a.quotaAt[sec])...)
			delete(a.quotaAt, sec)
			if !math.IsNaN(st.p99) && (math.IsNaN(g.stalled.p99) || st.p99 > g.stalled.p99) {
				g.stalled = st
			}
			delete(a.stallAt, sec)
			if cpu, ok := a.cpuAt[sec]; ok && a.who.cores() > 0 {
				if share := cpu / a.who.cores(); !g.busy.ok || share > g.busy.cpu/g.busy.cores {
					g.busy = busiest{sec: sec, cpu: cpu, cores: a.who.cores(), ok: true}
				}
			}
			delete(a.cpuAt, sec)
		} else if a.owes(sec) {
			a.missing = append(a.missing, sec)
			if g.missed != nil {
				g.missed(a.name, sec)
			}
		}
		a.merged = sec + 1
	}
	if g.onSec != nil {
		g.onSec(g.progressAfter(snap))
	}
	return snap
}

// settle waits until no agent owes second sec, or until its wait is over;
// g.mu is held, and released while it waits.
func (g *generator) settle(sec int) {
	deadline := time.NewTimer(time.Until(g.start.Add(time.Duration(sec+1)*time.Second + collectGrace + g.wait)))
	defer deadline.Stop()
	for g.owed(sec) {
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
			g.mu.Lock()
			continue
		case <-deadline.C:
		}
		g.mu.Lock()
		return
	}
}

// Has waits for second sec as Second does and reports whether it is a
// second of the load: an agent sent it, or still owes it (Second marks it
// missing). Once every agent ended or was lost before sec, it is not: the
// seconds it took to find a silent agent gone are no part of the run.
func (g *generator) Has(sec int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.settle(sec)
	for _, a := range g.agents {
		if _, sent := a.pending[sec]; sent || a.owes(sec) {
			return true
		}
	}
	return false
}

// owed reports whether any agent still owes second sec; g.mu is held.
func (g *generator) owed(sec int) bool {
	for _, a := range g.agents {
		if a.owes(sec) {
			return true
		}
	}
	return false
}

// Busiest is the busiest agent's CPU in second sec, once Second took it.
func (g *generator) Busiest(sec int) (cpu, capacity float64, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy.sec != sec || !g.busy.ok {
		return 0, 0, false
	}
	return g.busy.cpu, g.busy.cores, true
}

// Stall is, for second sec once Second took it, the waits for a CPU of
// the agent whose goroutines waited longest (scheduling latency p99, in
// seconds) with its threads' run-queue wait in cores; NaN where no agent
// said.
func (g *generator) Stall(sec int) (p99, waitCores float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.perSec != sec {
		return math.NaN(), math.NaN()
	}
	return g.stalled.p99, g.stalled.wait
}

// AgentSeries is each agent's figures in second sec, once Second took it:
// a missing or lost agent has no point there.
func (g *generator) AgentSeries(sec int) series.Set {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.perSec != sec {
		return nil
	}
	return g.perAg
}

// InFlight is the agents' requests in flight, as each last said.
func (g *generator) InFlight() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	var n int64
	for _, a := range g.agents {
		if !a.lost && !a.done {
			n += a.inFlight
		}
	}
	return n
}

// Ended is when the load ended: the last second or end any agent sent
// arrived, not the silence by which one was found lost (5 s after its
// last word), which is no part of the load; the start when none did.
func (g *generator) Ended() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	end := g.start
	for _, a := range g.agents {
		if a.heard.After(end) {
			end = a.heard
		}
	}
	return end
}

// Seconds is how many seconds the agents have sent.
func (g *generator) Seconds() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seconds
}
