package cli

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
)

// TestCommandsStopAtTheFirstSignal: a command that does not watch its
// context (an import stuck on a pipe, a compare of huge runs) ends at the
// first signal with a non-zero exit; one that watches it (run, agent,
// mock) is waited for, so it can write what it measured.
func TestCommandsStopAtTheFirstSignal(t *testing.T) {
	for _, c := range []struct {
		name    string
		watches bool
		want    int
	}{
		{"import", false, app.ExitRunFailed},
		{"run", true, app.ExitThresholdFailed}, // its own code, after its own stop
	} {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			started := make(chan struct{})
			cmd := command{name: c.name, run: func(ctx context.Context, e *env, _ []string) int {
				if c.watches {
					e.watchStop()
				}
				close(started)
				select {
				case <-release: // a command that never looks at ctx
				case <-watched(ctx, c.watches):
				}
				return app.ExitThresholdFailed
			}}
			ctx, cancel := context.WithCancelCause(context.Background())
			var stderr strings.Builder
			e := &env{stdout: &strings.Builder{}, stderr: &stderr}
			got := make(chan int, 1)
			go func() { got <- runCommand(ctx, e, cmd, nil) }()
			<-started
			cancel(Stopped(syscall.SIGTERM))
			select {
			case code := <-got:
				if code != c.want {
					t.Errorf("exit %d, want %d", code, c.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the command did not stop within 10 s of the signal")
			}
			if said := strings.Contains(stderr.String(), c.name+" stopped (terminated)"); said == c.watches {
				t.Errorf("stderr %q: says it stopped the command = %v, want %v", stderr.String(), said, !c.watches)
			}
		})
	}
}

// watched is ctx.Done() for a command that watches its context, else a
// channel that never closes.
func watched(ctx context.Context, watches bool) <-chan struct{} {
	if watches {
		return ctx.Done()
	}
	return nil
}

// TestStoppedIsCanceled: the cause a signal gives is context.Canceled to callers.
func TestStoppedIsCanceled(t *testing.T) {
	if !errors.Is(Stopped(syscall.SIGTERM), context.Canceled) {
		t.Fatal("Stopped(SIGTERM) is not context.Canceled")
	}
}
