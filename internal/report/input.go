package report

import (
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// Input is everything a report is made from.
type Input struct {
	Name       string                // the test's name
	Dir        string                // the run directory
	Status     string                // completed, aborted, interrupted, failed or incomplete
	ExitCode   int                   // the exit code the run ended with (app decides it); history.NoExitCode when it never finished
	Version    string                // loadlens version that ran the test
	Start, End time.Time             // wall-clock start and end
	Run        *metrics.Run          // the measurements
	Thresholds []threshold.Threshold // the test's thresholds
	Results    []threshold.Result    // their outcomes, aligned with Thresholds
	Notices    []string              // things the run said while it ran, e.g. data running out
	Outputs    []OutputResult        // the metrics outputs (--out) and the seconds each got
	// HTTPVersions is, per endpoint, its responses by HTTP version, kept
	// for the scenarios with http2: true; nil or zero elsewhere.
	HTTPVersions []sample.HTTPVersions
	// Drops are the open-model scenarios that dropped iterations and why,
	// the facts of the engine's notices (Notices say them in words); nil
	// when read back from run.db or from a distributed run's agents.
	Drops []sample.Drops

	Host         string          // the machine that generated the load
	CPUs         int             // its CPU count
	Args         []string        // the command line
	TestFile     string          // the test file's path; "" in URL mode
	TestSource   []byte          // the test as run: the file's text, or the plan made from a URL
	GeneratorCPU map[int]float64 // loadlens's own CPU by second, in cores busy; seconds missing are unknown
	BodyCaps     []int64         // per endpoint: the max_body of its steps; 0 when they differ or it is unknown

	Series   series.Set         // the target's Prometheus series and the generator's own, on the run's clock
	Findings []diagnose.Finding // the bottlenecks the diagnosis found, with evidence
	Healthy  *diagnose.Verdict  // the diagnosis's statement when it found no bottleneck; nil otherwise
	Traces   *Traces            // the run's trace ids and, with a receiver, where the time went; nil when none were kept

	Agents []Agent // the agents of a distributed run; nil for a run in one process

	Tags  map[string]string // the run's labels (run --tag k=v), for its history
	Shape string            // the load shape in words: runs of one test and shape form a history series
}

// The verdicts of a run.
const (
	VerdictPass         = "PASS"          // it ran to its end and every threshold passed
	VerdictFail         = "FAIL"          // a threshold failed, or every request of a run with thresholds did
	VerdictNoThresholds = "NO THRESHOLDS" // it ran to its end with nothing to judge it by
	VerdictInterrupted  = "INTERRUPTED"   // Ctrl-C or SIGTERM stopped it before its end
	VerdictAborted      = "ABORTED"       // abort_on_fail stopped it, yet its thresholds pass on the whole run
	VerdictRunFailed    = "RUN FAILED"    // an error stopped it
	VerdictIncomplete   = "INCOMPLETE"    // its results are not all kept
	VerdictPartial      = "PARTIAL LOAD"  // an agent was lost: the planned load was not all delivered
)

// Verdict returns the run's verdict: an interrupted, failed, incomplete or
// partial run never reads PASS, since it does not exit 0.
func Verdict(in *Input) string {
	switch in.Status {
	case "interrupted":
		return VerdictInterrupted
	case "failed":
		return VerdictRunFailed
	case "incomplete":
		return VerdictIncomplete
	case "partial":
		return VerdictPartial
	}
	switch {
	case !in.ThresholdsPassed():
		return VerdictFail
	case in.Status == "aborted":
		return VerdictAborted
	case len(in.Results) == 0:
		return VerdictNoThresholds
	}
	return VerdictPass
}

// Passed reports whether the run passed: it ran to its end (status
// completed) and every threshold passed, which is when it exits 0.
func (in *Input) Passed() bool {
	return (in.Status == "completed" || in.Status == "") && in.ThresholdsPassed()
}

// ThresholdsPassed reports whether every threshold passed, however the run
// ended, and the run's gate with them: a run with thresholds in which every
// request failed never passes (AnsweredNothing), whatever its counts say.
func (in *Input) ThresholdsPassed() bool {
	if _, dead := in.AnsweredNothing(); dead {
		return false
	}
	for _, r := range in.Results {
		if !r.Pass {
			return false
		}
	}
	return true
}

// AnsweredNothing returns how many requests were sent, and true when
// thresholds judge a run in which every one of them failed (none succeeded,
// the notion the latency thresholds use): a gate fails such a run, since
// counts of requests, iterations, VUs or bytes pass as well on a target that
// never answered (k6 would pass it). False without thresholds: that run
// exits 0 and says so.
func (in *Input) AnsweredNothing() (int64, bool) {
	if len(in.Results) == 0 || in.Run == nil {
		return 0, false
	}
	tot := in.Run.Total()
	return tot.Requests, tot.Requests > 0 && failed(&tot) == tot.Requests
}

// GateNote says why the gate failed a run in which every request failed,
// "" for any other run: the one sentence the summary, report.html and
// JUnit share.
func (in *Input) GateNote() string {
	n, dead := in.AnsweredNothing()
	if !dead {
		return ""
	}
	u := runUnit(in.Run).Or()
	return everyRequest(n, u) + " failed; a gate never passes a run in which no " + u.One + " succeeded"
}

// everyRequest names all n requests (calls, sessions: u): "the one
// request", "every one of the 60 calls".
func everyRequest(n int64, u units.Unit) string {
	u = u.Or()
	return units.Plural(n, "the one "+u.One, "every one of the "+u.Count(n))
}

// Dropped returns the dropped iterations of all scenarios.
func (in *Input) Dropped() int64 {
	var n int64
	for _, s := range in.Run.Scenarios {
		n += s.Dropped
	}
	return n
}

// Observed formats a threshold's observed value in the metric's unit, the
// way the expression was written: p(95)=12.3ms, rate=1.20%; or why it
// failed without one, e.g. "no completed request (60 sent)".
func Observed(t *threshold.Threshold, r threshold.Result) string {
	if r.Reason != "" {
		return r.Reason
	}
	if !r.HasData {
		return "no data"
	}
	name := t.AggName()
	kind := t.MetricKind()
	switch {
	case t.IsTime():
		return name + "=" + units.Duration(time.Duration(r.Observed*float64(time.Millisecond)))
	case kind == threshold.RateKind:
		return name + "=" + units.Percent(r.Observed)
	case t.Agg == threshold.Rate:
		return name + "=" + units.Rate(r.Observed, "")
	}
	return name + "=" + units.Number(r.Observed)
}
