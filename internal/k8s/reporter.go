package k8s

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// reportEvery is how often the running figures are written to the status
// ConfigMap: often enough for `k8s status`, rare enough for the API server.
const reportEvery = 2 * time.Second

// Reporter keeps a run's status ConfigMap up to date from the coordinator.
type Reporter struct {
	c         *Client
	ns, name  string
	log       io.Writer
	mu        sync.Mutex
	st        Status
	written   time.Time
	complaint bool // a failed write was said once
}

// NewReporter reports into the status ConfigMap of run in ns; st is the first status.
func NewReporter(c *Client, ns, run string, st Status, log io.Writer) *Reporter {
	return &Reporter{c: c, ns: ns, name: StatusName(run), st: st, log: log}
}

// Status returns the status as last set.
func (r *Reporter) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st
}

// Update changes the status and writes it when its phase changed or the
// last write is reportEvery old; the write runs here, so Update is for
// the collector's second, not a hot path.
func (r *Reporter) Update(ctx context.Context, f func(*Status)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	phase := r.st.Phase
	f(&r.st)
	if r.st.Phase == phase && time.Since(r.written) < reportEvery {
		return
	}
	r.writeLocked(ctx)
}

// Beat writes the status if it has not been written for reportEvery: its
// Updated time is how `k8s status` tells a live coordinator from a dead one.
func (r *Reporter) Beat(ctx context.Context) {
	r.Update(ctx, func(*Status) {})
}

func (r *Reporter) writeLocked(ctx context.Context) {
	r.st.Updated = time.Now()
	patch, _ := json.Marshal(map[string]any{"data": r.st.Data()})
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := r.c.patch(ctx, configMaps(), r.ns, r.name, patch); err != nil {
		if !r.complaint {
			fmt.Fprintf(r.log, "writing the status ConfigMap %s/%s: %v (the run goes on)\n", r.ns, r.name, err)
			r.complaint = true
		}
		return
	}
	r.written = r.st.Updated
}
