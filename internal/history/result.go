package history

// Outcome is what a run's result word is made of: how it ended, its exit
// code, how many thresholds judged it, and whether every request failed.
type Outcome struct {
	Status     string // completed, aborted, interrupted, failed, incomplete or partial
	ExitCode   int
	Thresholds int  // thresholds evaluated; -1 when a record of an earlier build does not say
	AllFailed  bool // requests were sent and every one failed
	// Disturbed is the kind of the run's critical finding that says the
	// load generator or its host limited it (Run.Disturbed), or "".
	Disturbed string
}

// exitThresholdFailed is the exit code of a failed threshold (app's
// ExitThresholdFailed, k6's 99), which this pure package does not import.
const exitThresholdFailed = 99

// exitNotDetermined is the exit code of a capacity search that could not
// determine a capacity (app's ExitNotDetermined): never "passed".
const exitNotDetermined = 3

// Result is a run's result in a word, the same for `loadlens runs` and
// `loadlens history`: "passed" or "failed" only when thresholds judged
// it, since exit code 0 of a run without any judged nothing; "all failed"
// when every request failed and no threshold said so (its summary's ALL
// FAILED); "run failed" when an error stopped the run, not a threshold.
// " (generator)" follows when the load generator or its host limited the
// run: its figures, passed or not, are not the target's.
func Result(o Outcome) string {
	if o.Disturbed != "" {
		return outcome(o) + " (generator)"
	}
	return outcome(o)
}

// DisturbedNote says what Result's "(generator)" means, under a list of
// runs that shows it.
const DisturbedNote = "(generator): the run's own diagnosis found the load generator or its host limited it " +
	"(generator-bound, generator-host-busy): change points leave out each figure its generator's delay could explain " +
	"a material part of (`loadlens history` says which)."

// outcome is Result's word before a disturbed generator's mark.
func outcome(o Outcome) string {
	switch {
	case o.ExitCode == exitThresholdFailed && o.Status == "completed":
		return "failed"
	case o.ExitCode == exitThresholdFailed:
		return "failed (" + o.Status + ")"
	case o.Status == "failed":
		return "run failed"
	case o.ExitCode == exitNotDetermined && o.Status == "completed":
		return "not determined"
	case o.Status != "completed":
		return o.Status
	case o.AllFailed:
		return "all failed"
	case o.Thresholds == 0:
		return "no thresholds"
	case o.ExitCode == 0:
		return "passed"
	}
	return o.Status
}

// Result is the run's result in a word (see the function Result).
func (r *Run) Result() string {
	o := Outcome{Status: r.Status, ExitCode: r.ExitCode, Thresholds: -1, AllFailed: r.Requests > 0 && r.ErrorRate >= 1, Disturbed: r.Disturbed}
	if r.Thresholds != nil {
		o.Thresholds = *r.Thresholds
	}
	return Result(o)
}
