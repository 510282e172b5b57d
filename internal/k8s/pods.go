package k8s

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
)

// Agent is one agent's pod, ready to be reached.
type Agent struct {
	Index int    // the Job's completion index, the agent's LOADLENS_AGENT_INDEX
	Pod   string // the pod's name
	IP    string // the pod's IP, where a coordinator in the cluster reaches it
}

// pollEvery is how often the pods are listed while waiting: a list of one
// run's pods each second costs the API server little and needs no watch.
const pollEvery = time.Second

// WaitReady follows the run's pods until every agent's is ready, writing
// each change of state to w (pending and why, pulling, running, failed and
// why). It fails as soon as a pod cannot start (a bad image, a missing
// Secret) or the Job fails, and when ctx ends: unschedulable pods are
// waited for, since a cluster autoscaler may yet add a node.
func WaitReady(ctx context.Context, c *Client, job *kapi.Job, n int, w io.Writer) ([]Agent, error) {
	return waitReady(ctx, c, job, n, w, func(int) {})
}

// waitReady is WaitReady telling ready how many agents are ready at each look.
func waitReady(ctx context.Context, c *Client, job *kapi.Job, n int, w io.Writer, ready func(int)) ([]Agent, error) {
	last := map[string]string{}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		agents, nready, err := pollPods(ctx, c, job, n, last, w)
		if err == nil {
			ready(nready)
		}
		if err != nil || len(agents) == n {
			return agents, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the agents' pods (%s): %w", summary(last, n), context.Cause(ctx))
		case <-tick.C:
		}
	}
}

// pollPods lists the pods once, reports changes, and returns every agent
// by index once all are ready, and how many are.
func pollPods(ctx context.Context, c *Client, job *kapi.Job, n int, last map[string]string, w io.Writer) ([]Agent, int, error) {
	if err := jobFailed(ctx, c, job); err != nil {
		return nil, 0, err
	}
	list, err := c.listPods(ctx, job.Namespace, agentSelector(job.Name))
	if err != nil {
		return nil, 0, fmt.Errorf("listing the agents' pods: %w", err)
	}
	ready := map[int]Agent{}
	for i := range list {
		p := &list[i]
		idx, err := strconv.Atoi(p.Annotations[IndexAnnotate])
		if err != nil || idx < 0 || idx >= n {
			continue // not one of the Job's indexed pods
		}
		st, fatal := podState(p)
		key := fmt.Sprintf("agent %d (pod %s)", idx, p.Name)
		if last[key] != st {
			last[key] = st
			fmt.Fprintf(w, "%s: %s\n", key, st)
		}
		if fatal {
			return nil, 0, fmt.Errorf("%s cannot start: %s", key, st)
		}
		if st == "ready" {
			ready[idx] = Agent{Index: idx, Pod: p.Name, IP: p.Status.PodIP}
		}
	}
	if len(ready) < n {
		return nil, len(ready), nil
	}
	agents := make([]Agent, 0, n)
	for _, a := range ready {
		agents = append(agents, a)
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].Index < agents[j].Index })
	return agents, n, nil
}

// jobFailed returns the Job's failure, with Kubernetes's reason, if it failed.
func jobFailed(ctx context.Context, c *Client, job *kapi.Job) error {
	j, err := c.getJob(ctx, job.Namespace, job.Name)
	if err != nil {
		return fmt.Errorf("reading Job %s/%s: %w", job.Namespace, job.Name, err)
	}
	for _, cond := range j.Status.Conditions {
		if cond.Type == kapi.JobFailed && cond.Status == kapi.ConditionTrue {
			return fmt.Errorf("the Job %s/%s failed: %s: %s", job.Namespace, job.Name, cond.Reason, cond.Message)
		}
	}
	return nil
}

// summary counts the states last seen, for an error after a timeout.
func summary(last map[string]string, n int) string {
	counts := map[string]int{}
	for _, st := range last {
		counts[st]++
	}
	s := fmt.Sprintf("%d of %d pods seen", len(last), n)
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += fmt.Sprintf("; %d %s", counts[k], k)
	}
	return s
}

// ReportFailed writes, for each of the run's pods that failed, why (an
// OOM kill, an eviction, a non-zero exit): the coordinator knows only that
// an agent was lost, Kubernetes knows why. It returns how many it wrote.
func ReportFailed(ctx context.Context, c *Client, job *kapi.Job, w io.Writer) (int, error) {
	list, err := c.listPods(ctx, job.Namespace, agentSelector(job.Name))
	if err != nil {
		return 0, fmt.Errorf("listing the agents' pods: %w", err)
	}
	n := 0
	for i := range list {
		p := &list[i]
		if p.Status.Phase != kapi.PodFailed {
			continue
		}
		st, _ := podState(p)
		fmt.Fprintf(w, "agent %s (pod %s): %s\n", p.Annotations[IndexAnnotate], p.Name, st)
		n++
	}
	return n, nil
}

// agentSelector selects a run's agent pods, not its coordinator's.
func agentSelector(run string) string { return RunLabel + "=" + run + "," + ComponentKey + "=agent" }
