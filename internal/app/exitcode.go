// Package app holds loadlens's use cases (run, summary, runs, validate,
// demo): the one place that wires the engine, metrics, store and reports.
package app

// Exit codes, the same table for every command.
const (
	ExitOK              = 0  // the run completed and every threshold passed
	ExitRunFailed       = 1  // the run could not complete (an error, a failed data file, Ctrl-C)
	ExitBadInput        = 2  // bad usage or a bad test file
	ExitThresholdFailed = 99 // a threshold failed (k6 uses the same code)
)

// exitCode maps how a run ended to its exit code; failed thresholds win,
// because they are the most specific news for CI.
func exitCode(status string, passed bool) int {
	switch {
	case !passed:
		return ExitThresholdFailed
	case status == StatusCompleted:
		return ExitOK
	default:
		return ExitRunFailed
	}
}

// How a run ended.
const (
	StatusCompleted   = "completed"   // every scenario ran to its end
	StatusAborted     = "aborted"     // a threshold with abort_on_fail stopped it
	StatusInterrupted = "interrupted" // the user stopped it (Ctrl-C)
	StatusFailed      = "failed"      // an error stopped it
	StatusIncomplete  = "incomplete"  // the process died before finishing (read back from run.db)
)
