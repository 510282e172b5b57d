package k8s

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestPodState(t *testing.T) {
	waiting := func(reason, msg string) corev1.PodStatus {
		return corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}}}
	}
	for _, tc := range []struct {
		name  string
		st    corev1.PodStatus
		want  string
		fatal bool
	}{
		{"new", corev1.PodStatus{Phase: corev1.PodPending}, "pending", false},
		{"unschedulable", corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled,
			Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: "0/3 nodes are available: 3 Insufficient cpu."}}},
			"pending: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.", false},
		{"first pull error", waiting("ErrImagePull", "not found"), "waiting: ErrImagePull: not found", false},
		{"pull backoff", waiting("ImagePullBackOff", `Back-off pulling image "x"`), `waiting: ImagePullBackOff: Back-off pulling image "x"`, true},
		{"no secret", waiting("CreateContainerConfigError", `secret "s" not found`), `waiting: CreateContainerConfigError: secret "s" not found`, true},
		{"creating", waiting("ContainerCreating", ""), "waiting: ContainerCreating", false},
		{"running", corev1.PodStatus{Phase: corev1.PodRunning}, "running, not ready yet", false},
		{"ready", corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}, "ready", false},
		{"oom", corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{{State: corev1.ContainerState{
			Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}}}}, "failed: OOMKilled, exit code 137", true},
		{"evicted", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted", Message: "low on memory"}, "failed: Evicted: low on memory", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, fatal := podState(&corev1.Pod{Status: tc.st})
			if got != tc.want || fatal != tc.fatal {
				t.Errorf("podState = %q, %v; want %q, %v", got, fatal, tc.want, tc.fatal)
			}
		})
	}
}
