package app

import (
	"context"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
)

// Generator makes a run's load outside this process and hands back its
// measurements second by second: internal/dist's agents. A run with one
// records, judges and reports exactly as a local run does.
type Generator interface {
	// Start fixes the instant the load begins, at or after now, and tells
	// whatever generates the load; the run's clock starts there. notify
	// takes messages for the user, printed and kept as the engine's are.
	Start(now time.Time, notify func(msg string)) time.Time
	// Run generates the load until it is over or ctx ends (Ctrl-C, or
	// abort_on_fail); it returns when every part of the load has stopped.
	Run(ctx context.Context) error
	// Has waits, within the generator's own bound, for second sec, and
	// reports whether it is a second of the load: a part sent it, or owes
	// it (Second marks it missing). False once every part ended before it.
	Has(sec int) bool
	// Second returns second sec's measurements, waiting for them within
	// the generator's own bound; the snapshot has the plan's layout.
	Second(sec int) *metrics.Snapshot
	// InFlight is the requests sent and not yet answered, as last reported.
	InFlight() int64
	// Seconds is how many seconds the load has reported so far.
	Seconds() int
	// Ended is when the load ended, as its parts' last measurements came:
	// the run's length and rates are the load's, not the wait to find a
	// silent part gone.
	Ended() time.Time
	// Busiest returns, for second sec (already taken with Second), the CPU
	// of the part of the load busiest relative to its cores, and those
	// cores; false when no part reported its CPU. The generator findings
	// judge it, since the weakest agent limits the test first.
	Busiest(sec int) (cpu, capacity float64, ok bool)
	// Stall returns, for second sec (already taken with Second), the waits
	// for a CPU of the part whose goroutines waited longest: their
	// scheduling latency p99 in seconds and its threads' run-queue wait in
	// cores; NaN where no part said. A run with a Generator records these
	// as the generator's, not the coordinating process's own, which makes
	// no requests and whose waits delay none.
	Stall(sec int) (p99, waitCores float64)
	// SameHost reports whether every part of the load runs on this host:
	// the host's CPU the coordinator reads is then theirs, recorded beside
	// the busiest part's own, so late iterations on a busy host are named
	// so (generator-host-busy) and not blamed on parts that idled.
	SameHost() bool
	// AgentSeries returns each part's figures in second sec (already
	// taken with Second), labelled by part, for the per-agent charts.
	AgentSeries(sec int) series.Set
	// Agents describes every part of the load for the report.
	Agents() []report.Agent
}
