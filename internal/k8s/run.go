package k8s

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// Coordinate runs the test on the agents at addrs (by completion index)
// and writes the run directory on this machine. It is the distributed
// coordinator's entry point, given by the caller.
type Coordinate func(ctx context.Context, addrs []string) error

// Run is one distributed run on a cluster, from creating its objects to
// deleting them.
type Run struct {
	Client     *Client
	Objects    *Objects
	Reach      Reach
	Coordinate Coordinate
	Startup    time.Duration // how long the agents' pods may take to become ready
	Log        io.Writer     // progress: objects, pods, cleanup
}

// Do creates the objects, waits for the agents, reaches each, runs the
// coordinator, and deletes every object it created, on success, failure
// and cancellation (Ctrl-C) alike.
func (r *Run) Do(ctx context.Context) (err error) {
	o := r.Objects
	ns, name := o.Job.Namespace, o.Job.Name
	if err := Create(ctx, r.Client, o); err != nil {
		return err
	}
	fmt.Fprintf(r.Log, "created Job, Secret and ConfigMap %s/%s (%s; label %s=%s)\n",
		ns, name, units.CountOf(int64(*o.Job.Spec.Completions), "agent", "agents"), RunLabel, name)
	defer func() {
		derr := Delete(context.WithoutCancel(ctx), r.Client, o)
		if derr == nil {
			fmt.Fprintf(r.Log, "deleted Job, pods, Secret and ConfigMap %s/%s\n", ns, name)
		}
		err = errors.Join(err, derr)
	}()
	n := int(*o.Job.Spec.Completions)
	wait, cancel := context.WithTimeoutCause(ctx, r.Startup, fmt.Errorf("the agents' pods were not ready within %v (--startup-timeout)", r.Startup))
	agents, err := WaitReady(wait, r.Client, o.Job, n, r.Log)
	cancel()
	if err != nil {
		return err
	}
	reach, stop := context.WithCancel(ctx)
	defer stop() // ends the port-forwards
	addrs := make([]string, n)
	for i, a := range agents {
		if addrs[i], err = r.Reach(reach, a); err != nil {
			return fmt.Errorf("reaching agent %d (pod %s): %w", a.Index, a.Pod, err)
		}
	}
	fmt.Fprintf(r.Log, "%s ready; coordinating from this machine\n", units.Plural(int64(n), "1 agent", "all "+units.CountOf(int64(n), "agent", "agents")))
	err = r.Coordinate(ctx, addrs)
	_, _ = ReportFailed(context.WithoutCancel(ctx), r.Client, o.Job, r.Log) // best effort: the run's outcome is the coordinator's
	return err
}
