package app

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/output"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// runner is one run: the parts execute opens, and the collector's state.
type runner struct {
	cfg        RunConfig
	in         *report.Input // what the reports are made from
	dir        string
	start, end time.Time // end: when the collector took the last second
	stopped    time.Time // when the engine returned: the end of the run's last second; zero before
	store      *store.Writer
	rec        *metrics.Recorder
	run        *metrics.Run
	eng        *engine.Engine
	shared     []string // the setup's values, which every VU reads
	scrape     part     // the scraper of the observe targets
	line       *live.Line
	dash       *dashboardFeed // nil without a dashboard
	obs        *observations  // scraped and self-observed series
	traces     *traceRun      // trace ids kept, spans received
	outs       *output.Set    // the metrics outputs; nil without any
	meters     *selfMeters    // the generator's CPU, its host's and its waits for a CPU, per second
	cgroups    *cgroupMeter   // the loopback targets' cgroup quotas; nil for a distributed run
	own        *ownQuota      // the CPU quota that holds loadlens's own process; nil for a distributed run
	total      time.Duration
	stopEngine context.CancelFunc
	aborted    map[int]bool
	lost       *lostWrite // set when that failure made the results incomplete
	kept       int        // seconds written to run.db so far
	pacer      *pacer     // pauses between the second's chunks of work
	pauseHook  func()     // replaces the pacer; tests count the chunks with it

	mu      sync.Mutex
	notices []notice
	shown   int
}

// notice is a message for the user, printed as it comes and, unless it is
// only news of the moment, kept for the summary.
type notice struct {
	text    string
	warning bool // the results are at stake
	passing bool // printed while the run lasts, not kept: the summary says it its own way
}

// lostWrite is the failure to write run.db that made the results incomplete.
type lostWrite struct {
	sec   int    // the second being written when it failed; -1: how the run ended
	kept  int    // the seconds run.db holds: 0 to kept-1
	cause string // why, when it can be told (see storageCause)
	err   error
}

// notice keeps a message from the engine; the collector prints it.
func (r *runner) notice(msg string) {
	r.mu.Lock()
	r.notices = append(r.notices, notice{text: msg, passing: isGracefulStopNote(msg)})
	r.mu.Unlock()
}

// isGracefulStopNote reports whether msg is the engine's note that it waits
// for requests in flight: news of the moment, which the summary tells its
// own way (the requests cut off), so it is not printed there a second time.
// TestGracefulStopNoteIsPrintedOnce holds the engine's wording to this.
func isGracefulStopNote(msg string) bool {
	return strings.HasSuffix(msg, "(graceful stop)")
}

// noticeTexts returns the notices the summary keeps.
func (r *runner) noticeTexts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, n := range r.notices {
		if !n.passing {
			out = append(out, n.text)
		}
	}
	return out
}

// writeFailed stops the load when run.db cannot take a second (the disk
// is full, say): what follows could not be kept, and a run whose results
// are lost should not go on loading the target. What was written stays.
// The collector calls it, and prints the warning the same second.
func (r *runner) writeFailed(sec int, err error) {
	if r.lost != nil {
		return
	}
	r.lost = &lostWrite{sec: sec, kept: r.kept, cause: storageCause(r.dir, err), err: err}
	msg := fmt.Sprintf("run.db could not be written at second %d", sec)
	if r.lost.cause != "" {
		msg += " because " + r.lost.cause
	}
	msg += fmt.Sprintf(": stopping the load; %s (%v)", keptSeconds(r.kept), err)
	r.mu.Lock()
	r.notices = append(r.notices, notice{text: msg, warning: true, passing: true})
	r.mu.Unlock()
	r.stopEngine()
}

// keptSeconds says which seconds run.db holds: the first n.
func keptSeconds(n int) string {
	switch n {
	case 0:
		return "run.db holds no second"
	case 1:
		return "run.db keeps second 0"
	}
	return fmt.Sprintf("run.db keeps seconds 0–%d", n-1)
}

// incomplete says why the results are incomplete; "" when nothing was lost.
func (r *runner) incomplete() string {
	if r.lost == nil {
		return ""
	}
	why := ""
	if r.lost.cause != "" {
		why = " because " + r.lost.cause
	}
	if r.lost.sec < 0 {
		return "the results are incomplete: run.db could not record how the run ended" + why
	}
	return fmt.Sprintf("the results are incomplete: run.db could not be written at second %d%s, so the load was stopped there; %s",
		r.lost.sec, why, keptSeconds(r.lost.kept))
}

// lostError is the error a run whose results are incomplete ends with.
func (r *runner) lostError() error {
	return fmt.Errorf("%s: %w", r.incomplete(), r.lost.err)
}

func (r *runner) showNotices() {
	r.mu.Lock()
	fresh := r.notices[r.shown:]
	r.shown = len(r.notices)
	r.mu.Unlock()
	for _, n := range fresh {
		r.line.Done()
		lead := "note: "
		if n.warning {
			lead = "warning: "
		}
		io.WriteString(r.cfg.Out, units.Wrap(n.text, units.Columns, lead, "  "))
	}
}

// collect is the collector, a part of the run: it takes each second's
// measurements a little after the second ends, until its context ends
// (when the engine has returned); then it takes what is left, and ends
// the live line.
func (r *runner) collect(ctx context.Context) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	g := r.cfg.Generator
	for sec := 0; ; sec++ {
		timer.Reset(time.Until(r.start.Add(time.Duration(sec+1)*time.Second + collectGrace)))
		select {
		case <-timer.C:
			if g == nil || g.Has(sec) { // the wait to find a silent agent gone is no second of the run
				r.second(sec)
			}
		case <-ctx.Done():
			r.stopped = time.Now()
			last := int(r.stopped.Sub(r.start) / time.Second)
			if g != nil { // the agents' seconds and end, not the time it took to find a silent one gone
				r.stopped, last = g.Ended(), g.Seconds()-1
			}
			for s := sec; s <= last; s++ {
				r.second(s)
			}
			r.end = time.Now() // the run ends with its last second collected
			if g != nil {
				r.end = r.stopped
			}
			r.line.Done()
			return nil
		}
	}
}

// second takes one second's snapshot and hands it to everything that wants
// it, pausing between chunks of the work (see collectPause): no chunk is
// bigger than one endpoint's histograms or a few rows of run.db, whatever
// the number of endpoints.
func (r *runner) second(sec int) {
	r.pacer.newSecond()
	snap, vus, vusMax, gauges := r.take(sec)
	r.pause()
	var held []poolHeld
	if r.cfg.Generator == nil { // the agents' pools are theirs
		for i, g := range gauges {
			if g.HeldBy != "" {
				held = append(held, poolHeld{scenario: r.cfg.Plan.Scenarios[i].Name, reason: g.HeldBy, size: g.HeldAt})
			}
		}
	}
	r.run.AddPausing(snap, r.pause)
	r.run.SetElapsed(r.elapsedAt(sec)) // rates so far over the time the run lasted, a last second cut short too
	r.pause()
	if r.lost == nil {
		if err := r.store.WriteSecond(snap); err != nil { // pauses inside (store.Writer.SetPause)
			r.writeFailed(sec, err)
		} else {
			r.kept = sec + 1
		}
		r.pause()
	}
	r.outs.Offer(snap) // never waits: a slow output drops seconds, counted
	m := r.meters.sample()
	cpu, ok, st := m.cpu, m.cpuOK, m.stall
	capacity, host := float64(runtime.GOMAXPROCS(0)), m.host
	own := r.own.sample(sec)
	capacity = r.own.capacity(capacity) // in a container, its quota: GOMAXPROCS rounds it up
	if g := r.cfg.Generator; g != nil {
		// The agents make the load: the generator's figures are the busiest agent's, and its host's CPU is known here only when it is ours.
		cpu, capacity, ok = g.Busiest(sec)
		if !g.SameHost() {
			host = proc.HostReading{}
		}
	}
	if !ok {
		cpu = -1
	}
	r.pause()
	if g := r.cfg.Generator; g != nil {
		st = agentsStall(g, sec)
	}
	r.pause()
	fds := proc.OpenFDs(r.pause)
	r.pause()
	self := append(selfSeries(sec, cpu, capacity, host, st, held, &r.run.Series[len(r.run.Series)-1], fds), own...)
	if g := r.cfg.Generator; g != nil {
		self = append(self, g.AgentSeries(sec)...) // one write: the agents' seconds share the generator's transaction
	}
	if r.cgroups != nil {
		self = append(self, r.cgroups.sample(sec)...)
	}
	r.pause()
	r.obs.add(self) // pauses inside, as run.db's writes do
	if err := r.obs.writeErr(); err != nil {
		r.writeFailed(sec, err) // the series share run.db, and the disk
	}
	r.pause()
	r.checkAborts(sec)
	if r.dash != nil {
		r.dash.second(r.run, r.elapsedAt(sec), cpu, r.aborted, r.pause)
		r.pause()
	}
	r.showNotices()
	r.showLive(vus, vusMax)
}

// showLive hands the latest second's figures to the live line and to
// RunConfig.Live.
func (r *runner) showLive(vus, vusMax int64) {
	if r.cfg.Quiet && r.cfg.Live == nil {
		return
	}
	last := r.run.Series[len(r.run.Series)-1]
	var dropped int64
	for _, s := range r.run.Scenarios {
		dropped += s.Dropped
	}
	errRate := 0.0
	if last.Requests > 0 {
		errRate = float64(last.Failed) / float64(last.Requests)
	}
	covered := r.run.Covered(len(r.run.Series) - 1)
	if covered < metrics.MinCovered {
		return // too short a last second for a rate: the line keeps the one before (as the charts do)
	}
	st := live.Status{Elapsed: min(r.run.Elapsed(), time.Since(r.start)), Total: r.total, RPS: float64(last.Requests) / covered,
		P95: last.P95, ErrRate: errRate, VUs: vus, VUsMax: vusMax, Dropped: dropped, InFlight: r.inFlight(), Unit: r.run.Unit()}
	if r.cfg.Live != nil {
		r.cfg.Live(st)
	}
	if !r.cfg.Quiet {
		r.line.Update(st)
	}
}

// elapsedAt is how long the run had lasted at the end of second sec: a
// whole number of seconds, but for a last second the engine's return cut short.
func (r *runner) elapsedAt(sec int) time.Duration {
	el := time.Duration(sec+1) * time.Second
	if !r.stopped.IsZero() {
		if ran := r.stopped.Sub(r.start); ran > time.Duration(sec)*time.Second {
			el = min(el, ran)
		}
	}
	return el
}

// checkAborts stops the run when a threshold marked abort_on_fail fails,
// judged on the whole run so far, once its delay has passed.
func (r *runner) checkAborts(sec int) {
	elapsed := r.run.Elapsed() // as second set it
	for i := range r.cfg.Plan.Thresholds {
		t := &r.cfg.Plan.Thresholds[i]
		if !t.AbortOnFail || elapsed < t.DelayAbortEval || r.aborted[i] {
			continue
		}
		if res := r.run.Evaluate(t); !res.Pass && !res.NothingYet { // nothing recorded yet is for the verdict to judge
			r.aborted[i] = true
			r.notice(fmt.Sprintf("threshold %s %q failed at %s with abort_on_fail (%s): stopping the run", t.Key, t.Expr, units.Clock(sec+1), report.Observed(t, res)))
			r.stopEngine()
		}
	}
}

// take returns second sec's snapshot, from the engine here or from the
// generator elsewhere, with the VU gauges set and summed, and the engine's
// gauges (nil elsewhere). Gauges are read once a second: each read starts
// the next second's peak.
func (r *runner) take(sec int) (snap *metrics.Snapshot, vus, vusMax int64, gauges []sample.Gauge) {
	if r.cfg.Generator != nil {
		snap = r.cfg.Generator.Second(sec) // the agents set their gauges, and merging added them
	} else {
		snap = r.rec.CollectPausing(sec, r.pause)
		gauges = r.eng.Gauges(nil)
		snap.SetGauges(gauges)
		snap.SetOffered(r.eng.Offered(sec, nil)) // by the schedule: a late scheduler's count lands in a later second
	}
	for _, s := range snap.Scenarios {
		vus += s.VUs
		vusMax += s.VUsMax
	}
	return snap, vus, vusMax, gauges
}

// inFlight is the requests sent and not yet answered, here or by the agents.
func (r *runner) inFlight() int64 {
	if r.cfg.Generator != nil {
		return r.cfg.Generator.InFlight()
	}
	return r.eng.InFlight()
}
