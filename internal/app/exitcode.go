// Package app holds loadlens's use cases (run, summary, runs, validate,
// demo): the one place that wires the engine, metrics, store and reports.
package app

import (
	"errors"

	"github.com/loadlens/loadlens/internal/plan"
)

// Exit codes, the same table for every command.
const (
	ExitOK              = 0  // the run completed and every threshold passed
	ExitRunFailed       = 1  // the run could not complete (an error, a failed data file, Ctrl-C, a full disk, a lost agent)
	ExitBadInput        = 2  // bad usage or a bad test file
	ExitThresholdFailed = 99 // a threshold failed (k6 uses the same code)
	// ExitNotDetermined: a capacity search ended without an answer (its
	// host too busy, or no step could be judged); 3 is used by neither
	// loadlens nor k6, whose own codes are 97–110.
	ExitNotDetermined = 3
)

// ErrUsage marks errors in how a command was called: they exit ExitBadInput.
var ErrUsage = errors.New("usage")

// ExitCodeOf maps an error a command failed with to its exit code: bad
// input — a test file's errors, a usage error — is ExitBadInput; any other
// failure is ExitRunFailed.
func ExitCodeOf(err error) int {
	var perrs plan.Errors
	var perr *plan.Error
	if errors.As(err, &perrs) || errors.As(err, &perr) || errors.Is(err, ErrUsage) {
		return ExitBadInput
	}
	return ExitRunFailed
}

// ExitAfter is the exit code of a command whose outcome said code and
// which then failed with err (a report not written, run.db not finished):
// never less than ExitRunFailed, and a failed threshold's ExitThresholdFailed
// stays. Without err it is code.
func ExitAfter(code int, err error) int {
	if err == nil {
		return code
	}
	return max(code, ExitRunFailed)
}

// exitCode maps how a run ended to its exit code; failed thresholds win,
// because they are the most specific news for CI, except over results that
// could not be kept: thresholds judged on a run cut short by its own
// storage say nothing about the target.
func exitCode(status string, passed bool) int {
	switch {
	case status == StatusIncomplete:
		return ExitRunFailed
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
	StatusIncomplete  = "incomplete"  // the results are not all kept: run.db could not be written, or the process died before finishing
	StatusPartial     = "partial"     // an agent was lost: the planned load was not all delivered, so passing thresholds prove less
)
