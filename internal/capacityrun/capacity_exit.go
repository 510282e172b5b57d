package capacityrun

import (
	"context"
	"errors"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
)

// searchExitCode is how a search exits, and the error it still reports
// (an interruption is said by the exit code alone). A CI job reads 0 as
// "the capacity was found", so a search without an answer never exits 0.
func searchExitCode(ctxErr, serr error, res capacity.Result) (int, error) {
	switch {
	case serr != nil && !errors.Is(serr, context.Canceled):
		return app.ExitRunFailed, serr
	case ctxErr != nil:
		return app.ExitRunFailed, nil
	case res.Stop == capacity.HostBusy || res.Unjudged > 0:
		return app.ExitNotDetermined, nil // the headline reads "not determined", whatever held below it
	case res.Highest > 0:
		return app.ExitOK, nil
	case res.Stop == capacity.TargetFailed || res.Stop == capacity.NothingPassed || res.LowestFailing > 0:
		return app.ExitThresholdFailed, nil // no rate tried sustained the SLO, as a run whose thresholds failed
	}
	return app.ExitNotDetermined, nil // no step passed or failed (budget, step limit, generator): nothing was judged
}
