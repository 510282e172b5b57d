package k8s

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// reportEvery is how often the status ConfigMap is written: often enough
// for `k8s status` (and to show the coordinator alive), rare enough for
// the API server.
const reportEvery = 2 * time.Second

// Reporter keeps a run's status ConfigMap up to date from the coordinator.
// Set never waits for the API server: Run writes, in its own goroutine.
type Reporter struct {
	c         *Client
	ns, name  string
	log       io.Writer
	kick      chan struct{} // a phase changed: write now
	mu        sync.Mutex
	st        Status
	complaint bool // a failed write was said once
}

// NewReporter reports into the status ConfigMap of run in ns; st is the first status.
func NewReporter(c *Client, ns, run string, st Status, log io.Writer) *Reporter {
	return &Reporter{c: c, ns: ns, name: StatusName(run), st: st, log: log, kick: make(chan struct{}, 1)}
}

// Status returns the status as last set.
func (r *Reporter) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st
}

// Set changes the status; a new phase is written at once, figures with
// the next beat.
func (r *Reporter) Set(f func(*Status)) {
	r.mu.Lock()
	phase := r.st.Phase
	f(&r.st)
	changed := r.st.Phase != phase
	r.mu.Unlock()
	if changed {
		select {
		case r.kick <- struct{}{}:
		default:
		}
	}
}

// Run writes the status every reportEvery, and at once on a new phase,
// until ctx ends; then it writes it a last time.
func (r *Reporter) Run(ctx context.Context) {
	t := time.NewTicker(reportEvery)
	defer t.Stop()
	for {
		r.Write(ctx)
		select {
		case <-ctx.Done():
			r.Write(ctx)
			return
		case <-t.C:
		case <-r.kick:
		}
	}
}

// Write writes the status now.
func (r *Reporter) Write(ctx context.Context) {
	r.mu.Lock()
	r.st.Updated = time.Now()
	patch, _ := json.Marshal(map[string]any{"data": r.st.Data()})
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := r.c.patch(ctx, configMaps(), r.ns, r.name, patch); err != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.complaint {
			fmt.Fprintf(r.log, "writing the status ConfigMap %s/%s: %v (the run goes on)\n", r.ns, r.name, err)
			r.complaint = true
		}
	}
}
