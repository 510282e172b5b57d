package capacity

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// behindSlack is the share of a hold's arrivals that may end after it
// without the target falling behind, beyond what the iterations' own
// length and the generator's lag carry past the hold's end: completions
// wobble by a few percent.
const behindSlack = 0.02

// fellBehind says how a step that met its thresholds still did not hold
// its rate, or "": the target completed too few of the iterations the hold
// offered (neither completed nor dropped in it), so its queue grew and a
// longer hold would have failed the SLO. A p95 over a short hold lags a
// growing queue; the completions do not.
func fellBehind(r StepResult, hold time.Duration) string {
	return behindPast(r, hold, r.LagP99)
}

// behindPast is fellBehind with late the generator's delay the hold's
// last arrivals may carry past its end.
func behindPast(r StepResult, hold, late time.Duration) string {
	if r.Offered <= 0 || hold <= 0 {
		return ""
	}
	carried := (r.IterationMean + late).Seconds() / hold.Seconds()
	short := float64(r.Offered-r.Completed-r.HoldDropped) / float64(r.Offered)
	if short <= behindSlack+carried {
		return ""
	}
	return fmt.Sprintf("%s completed %s of the %s offered, %s short: the target fell behind",
		holdWord, Iterations(float64(r.Completed)/hold.Seconds()), Iterations(float64(r.Offered)/hold.Seconds()), units.Percent(short))
}

// holdWord starts the failed threshold fellBehind adds to a step.
const holdWord = "throughput:"
