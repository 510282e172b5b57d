package engine

import (
	"context"
	"errors"
)

// The causes the engine cancels with, so that a request cut off says why.
var (
	errInterrupted  = errors.New("interrupted") // work abandoned because the run or the VU was stopped
	errGracefulStop = errors.New("the graceful stop ended")
	errRampedDown   = errors.New("the VU was ramped down")
)

// interruptMessage says why a request was cut off. A cut-off request is
// recorded (kind interrupted, its duration the time it had waited so far,
// a lower bound): it was sent, and a run that hides it would pass a target
// that never answers.
func interruptMessage(ctx context.Context) string {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errGracefulStop):
		return "interrupted: the graceful stop ended"
	case errors.Is(cause, errRampedDown):
		return "interrupted: the VU was ramped down"
	case cause == nil, errors.Is(cause, context.Canceled):
		return "interrupted: the run was stopped"
	default:
		return "interrupted: " + shortMessage(cause)
	}
}
