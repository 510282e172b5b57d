package app

import (
	"context"
	"errors"
)

// part is a long-running piece of a run, in the one shape Prometheus
// gives its components: it works until its work is done or its context
// ends, and returns why it stopped. The engine, the collector and the
// scraper are parts; the dashboard and run.db are opened and closed
// around them (see cleanups).
type part func(ctx context.Context) error

// runBeside runs lead to its end with the others beside it; when lead
// returns, the others' context ends and runBeside waits for them to
// return. The others do not stop with ctx (Ctrl-C) but with lead, which
// does: so the collector still takes the seconds lead measured before it
// stopped. It returns lead's error and the others' errors joined.
func runBeside(ctx context.Context, lead part, others ...part) (leadErr, othersErr error) {
	stop, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	errs := make(chan error, len(others))
	for _, p := range others {
		go func() { errs <- p(stop) }()
	}
	leadErr = lead(ctx)
	cancel()
	all := make([]error, 0, len(others))
	for range others {
		all = append(all, <-errs)
	}
	return leadErr, errors.Join(all...)
}

// cleanups is what a run must undo on every path out, last first: each
// thing that needs closing adds its close as it is opened, and the one
// deferred run undoes whatever was opened, however far the run got.
type cleanups []func()

// add keeps f to run at the end.
func (c *cleanups) add(f func()) { *c = append(*c, f) }

// run runs every cleanup, the last added first, once.
func (c *cleanups) run() {
	for i := len(*c) - 1; i >= 0; i-- {
		(*c)[i]()
	}
	*c = nil
}
