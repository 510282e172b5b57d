package k8s

import (
	"context"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	"github.com/loadlens/loadlens/internal/units"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// StaleAfter is how long a status may go unwritten before the coordinator
// counts as gone: it writes at least every reportEvery.
const StaleAfter = 15 * time.Second

// RunState is an in-cluster run as the cluster shows it: the coordinator's
// own status, its Job's conditions and its pod's state.
type RunState struct {
	Run, Namespace string
	Status         Status
	Job            string // "active", "complete", "failed: Reason: message", "not found"
	Pod, PodState  string // the coordinator's pod and its state, as k8s run prints an agent's
	Agents         map[string]int
}

// ReadRun reads the state of the in-cluster run named run.
func ReadRun(ctx context.Context, c *Client, ns, run string) (*RunState, error) {
	st := &RunState{Run: run, Namespace: ns, Agents: map[string]int{}}
	var cm kapi.ConfigMap
	if err := c.get(ctx, configMaps(), ns, StatusName(run), &cm); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("no in-cluster run %s in namespace %s (its ConfigMap %s is not there: deleted after its TTL, or never created with --detach)", run, ns, StatusName(run))
		}
		return nil, fmt.Errorf("reading the run's status: %w", err)
	}
	st.Status = ParseStatus(cm.Data)
	st.Job = "not found"
	if j, err := c.getJob(ctx, ns, CoordinatorName(run)); err == nil {
		st.Job = jobState(j)
	} else if !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("reading the coordinator's Job: %w", err)
	}
	pods, err := c.listPods(ctx, ns, RunLabel+"="+run)
	if err != nil {
		return nil, fmt.Errorf("listing the run's pods: %w", err)
	}
	for i := range pods {
		p := &pods[i]
		s, _ := podState(p)
		if p.Labels[ComponentKey] == "coordinator" {
			st.Pod, st.PodState = p.Name, s
		} else {
			st.Agents[s]++
		}
	}
	return st, nil
}

func jobState(j *kapi.Job) string {
	for _, c := range j.Status.Conditions {
		if c.Status != kapi.ConditionTrue {
			continue
		}
		switch c.Type {
		case kapi.JobComplete:
			return "complete"
		case kapi.JobFailed:
			return "failed: " + orUnknown(c.Reason, c.Message, "")
		}
	}
	return "active"
}

// Gone says why the coordinator is no longer running the run, or "" while
// it is (or it finished): its Job failed, its pod failed, or it stopped
// writing its status while the run was not over.
func (r *RunState) Gone(now time.Time) string {
	if r.Status.Phase == PhaseFinished || r.Status.Phase == PhaseFailed {
		return ""
	}
	switch {
	case len(r.Job) > 6 && r.Job[:6] == "failed":
		return "its Job " + r.Job
	case len(r.PodState) > 6 && r.PodState[:6] == "failed":
		return "its pod " + r.Pod + " " + r.PodState
	case !r.Status.Updated.IsZero() && now.Sub(r.Status.Updated) > StaleAfter:
		return "it has not written its status for " + units.Duration(now.Sub(r.Status.Updated).Round(time.Second))
	}
	return ""
}

// Write words the state for the terminal.
func (r *RunState) Write(w io.Writer, now time.Time) {
	s := r.Status
	phase := s.Phase
	if why := r.Gone(now); why != "" {
		phase = "coordinator gone: " + why + "; agents stop their load within 5s of losing it"
	}
	fmt.Fprintf(w, "run %s/%s: %s\n", r.Namespace, r.Run, phase)
	fmt.Fprintf(w, "  agents: %d of %d ready, %d lost\n", s.Ready, s.Agents, s.Lost)
	u := s.Unit.Or()
	fmt.Fprintf(w, "  %s: %s (%s failed) in %s\n", u.Many, units.Count(s.Requests), units.Count(s.Failures), units.Clock(s.Second))
	if s.Phase == PhaseRunning && s.Elapsed > 0 {
		p95 := "-" // nothing completed in the second
		if s.P95 > 0 {
			p95 = units.Duration(s.P95)
		}
		fmt.Fprintf(w, "  latest second: %s · p95 %s · errors %s · in flight %s\n", u.Rate(s.Rate), p95, units.Percent(s.ErrorRate), units.Count(s.InFlight))
	}
	if s.Verdict != "" {
		fmt.Fprintf(w, "  verdict: %s (exit code %d)\n", s.Verdict, s.ExitCode)
	}
	if s.Message != "" {
		fmt.Fprintf(w, "  message: %s\n", s.Message)
	}
	if s.RunDir != "" {
		fmt.Fprintf(w, "  run directory: %s (loadlens k8s fetch %s)\n", s.RunDir, r.Run)
	}
	coord := "no pod"
	if r.Pod != "" {
		coord = "pod " + r.Pod + " " + r.PodState
	}
	age := "never"
	if !s.Updated.IsZero() {
		age = units.Duration(now.Sub(s.Updated).Round(time.Second)) + " ago"
	}
	fmt.Fprintf(w, "  coordinator: Job %s, %s; status written %s\n", r.Job, coord, age)
	if len(r.Agents) > 0 {
		keys := make([]string, 0, len(r.Agents))
		for k := range r.Agents {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprint(w, "  agent pods:")
		for _, k := range keys {
			fmt.Fprintf(w, " %d %s;", r.Agents[k], k)
		}
		fmt.Fprintln(w)
	}
}

// CoordinatorPod waits, until ctx ends, for the run's coordinator pod to
// be ready and returns its name; w hears each state it passes through.
func CoordinatorPod(ctx context.Context, c *Client, ns, run string, w io.Writer) (string, error) {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	last := ""
	for {
		pods, err := c.listPods(ctx, ns, RunLabel+"="+run+","+ComponentKey+"=coordinator")
		if err != nil {
			return "", fmt.Errorf("listing the coordinator's pod: %w", err)
		}
		state := "no pod yet"
		for i := range pods {
			st, fatal := podState(&pods[i])
			if st == "ready" {
				return pods[i].Name, nil
			}
			if fatal {
				return "", fmt.Errorf("the coordinator's pod %s: %s (loadlens k8s status %s says more)", pods[i].Name, st, run)
			}
			state = "pod " + pods[i].Name + ": " + st
		}
		if state != last {
			fmt.Fprintf(w, "coordinator of %s: %s\n", run, state)
			last = state
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for the coordinator's pod (%s): %w", state, context.Cause(ctx))
		case <-tick.C:
		}
	}
}

// RunToken reads the run's token from its Secret: the coordinator's control
// server demands it, and whoever may read the Secret may have it.
func RunToken(ctx context.Context, c *Client, ns, run string) (string, error) {
	var s kapi.Secret
	if err := c.get(ctx, secrets(), ns, run, &s); err != nil {
		return "", fmt.Errorf("reading the run's token from Secret %s/%s: %w", ns, run, err)
	}
	return string(s.Data[TokenKey]), nil
}

// WaitAgents is WaitReady for the agents' Job of run in ns, from the
// coordinator's pod; ready hears how many are ready at each look.
func WaitAgents(ctx context.Context, c *Client, ns, run string, n int, w io.Writer, ready func(int)) ([]Agent, error) {
	job := &kapi.Job{}
	job.Namespace, job.Name = ns, run
	return waitReady(ctx, c, job, n, w, ready)
}
