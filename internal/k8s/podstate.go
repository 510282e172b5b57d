package k8s

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// cannotStart tells the container waiting reasons that waiting does not
// fix, so the run stops and says why instead of waiting for its deadline.
// A first ErrImagePull may be a registry's hiccup; ImagePullBackOff is
// its repetition.
func cannotStart(reason string) bool {
	switch reason {
	case "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull",
		"CreateContainerConfigError", "CreateContainerError", "RunContainerError":
		return true
	}
	return false
}

// podState words a pod's state for the terminal, and says whether it can
// never become ready.
func podState(p *corev1.Pod) (state string, fatal bool) {
	if p.DeletionTimestamp != nil {
		return "terminating", true
	}
	switch p.Status.Phase {
	case corev1.PodFailed:
		return "failed: " + orUnknown(p.Status.Reason, p.Status.Message, terminated(p)), true
	case corev1.PodSucceeded:
		return "exited before the run (" + terminated(p) + ")", true
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return "pending: " + orUnknown(c.Reason, c.Message, ""), false
		}
	}
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Reason != "" {
			return "waiting: " + orUnknown(w.Reason, w.Message, ""), cannotStart(w.Reason)
		}
		if t := cs.State.Terminated; t != nil {
			return "failed: " + terminated(p), true
		}
	}
	if p.Status.Phase == corev1.PodRunning {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				return "ready", false
			}
		}
		return "running, not ready yet", false
	}
	return "pending", false
}

// terminated words the container's exit, if it exited.
func terminated(p *corev1.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if t := cs.State.Terminated; t != nil {
			return orUnknown(t.Reason, t.Message, "") + ", exit code " + strconv.Itoa(int(t.ExitCode))
		}
	}
	return ""
}

func orUnknown(reason, message, extra string) string {
	s := reason
	if message != "" {
		if s != "" {
			s += ": "
		}
		s += message
	}
	if extra != "" {
		if s != "" {
			s += "; "
		}
		s += extra
	}
	if s == "" {
		return "no reason given"
	}
	return s
}
