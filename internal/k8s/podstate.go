package k8s

import (
	"strconv"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
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
func podState(p *kapi.Pod) (state string, fatal bool) {
	if p.DeletionTimestamp != nil {
		return "terminating", true
	}
	switch p.Status.Phase {
	case kapi.PodFailed:
		return "failed: " + orUnknown(p.Status.Reason, p.Status.Message, terminated(p)), true
	case kapi.PodSucceeded:
		return "exited before the run (" + terminated(p) + ")", true
	}
	for _, c := range p.Status.Conditions {
		if c.Type == kapi.PodScheduled && c.Status == kapi.ConditionFalse {
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
	if p.Status.Phase == kapi.PodRunning {
		for _, c := range p.Status.Conditions {
			if c.Type == kapi.PodReady && c.Status == kapi.ConditionTrue {
				return "ready", false
			}
		}
		return "running, not ready yet", false
	}
	return "pending", false
}

// terminated words the container's exit, if it exited.
func terminated(p *kapi.Pod) string {
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
