package k8s

import (
	"testing"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
)

func TestPodState(t *testing.T) {
	waiting := func(reason, msg string) kapi.PodStatus {
		return kapi.PodStatus{Phase: kapi.PodPending, ContainerStatuses: []kapi.ContainerStatus{{
			State: kapi.ContainerState{Waiting: &kapi.ContainerStateWaiting{Reason: reason, Message: msg}}}}}
	}
	for _, tc := range []struct {
		name  string
		st    kapi.PodStatus
		want  string
		fatal bool
	}{
		{"new", kapi.PodStatus{Phase: kapi.PodPending}, "pending", false},
		{"unschedulable", kapi.PodStatus{Phase: kapi.PodPending, Conditions: []kapi.PodCondition{{Type: kapi.PodScheduled,
			Status: kapi.ConditionFalse, Reason: "Unschedulable", Message: "0/3 nodes are available: 3 Insufficient cpu."}}},
			"pending: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.", false},
		{"first pull error", waiting("ErrImagePull", "not found"), "waiting: ErrImagePull: not found", false},
		{"pull backoff", waiting("ImagePullBackOff", `Back-off pulling image "x"`), `waiting: ImagePullBackOff: Back-off pulling image "x"`, true},
		{"no secret", waiting("CreateContainerConfigError", `secret "s" not found`), `waiting: CreateContainerConfigError: secret "s" not found`, true},
		{"creating", waiting("ContainerCreating", ""), "waiting: ContainerCreating", false},
		{"running", kapi.PodStatus{Phase: kapi.PodRunning}, "running, not ready yet", false},
		{"ready", kapi.PodStatus{Phase: kapi.PodRunning, Conditions: []kapi.PodCondition{{Type: kapi.PodReady, Status: kapi.ConditionTrue}}}, "ready", false},
		{"oom", kapi.PodStatus{Phase: kapi.PodFailed, ContainerStatuses: []kapi.ContainerStatus{{State: kapi.ContainerState{
			Terminated: &kapi.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}}}}, "failed: OOMKilled, exit code 137", true},
		{"evicted", kapi.PodStatus{Phase: kapi.PodFailed, Reason: "Evicted", Message: "low on memory"}, "failed: Evicted: low on memory", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, fatal := podState(&kapi.Pod{Status: tc.st})
			if got != tc.want || fatal != tc.fatal {
				t.Errorf("podState = %q, %v; want %q, %v", got, fatal, tc.want, tc.fatal)
			}
		})
	}
}
