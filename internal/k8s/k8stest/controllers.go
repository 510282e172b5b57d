package k8stest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// ControllerManagerEnv names the variable holding kube-controller-manager's
// path (scripts/kube-apiserver builds it beside the API server; .ci/run
// exports it).
const ControllerManagerEnv = "LOADLENS_KUBE_CONTROLLER_MANAGER"

// collectors are the only controllers started: a run's clean-up is theirs,
// and no Job controller may start pods the test plays itself.
const collectors = "garbage-collector-controller,ttl-after-finished-controller"

// Controllers is a running kube-controller-manager with the TTL-after-
// finished controller and the garbage collector only.
type Controllers struct {
	logFile string
	mu      sync.Mutex
	exitErr error // set once the process has exited
	exited  bool
}

// StartControllers starts kube-controller-manager against s, stopped when
// t ends. Without the binary the test is skipped, or fails under
// LOADLENS_CI=1, which builds it.
func (s *APIServer) StartControllers(t *testing.T) *Controllers {
	t.Helper()
	bin := binary(ControllerManagerEnv, "kube-controller-manager")
	if bin == "" {
		why := fmt.Sprintf("needs kube-controller-manager in $%s (scripts/kube-apiserver builds it)", ControllerManagerEnv)
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	c := &Controllers{logFile: filepath.Join(s.dir, "controller-manager.log")}
	f, err := os.Create(c.logFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// --secure-port=0: no serving, so no port to collide with a parallel
	// test's and no delegated authentication to set up.
	cmd := exec.CommandContext(ctx, bin, "--kubeconfig="+s.Kubeconfig, "--controllers="+collectors,
		"--leader-elect=false", "--secure-port=0")
	cmd.Stdout, cmd.Stderr = f, f
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting %s: %v", bin, err)
	}
	done := make(chan struct{})
	go func() {
		err := cmd.Wait()
		c.mu.Lock()
		c.exited, c.exitErr = true, err
		c.mu.Unlock()
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		f.Close()
	})
	return c
}

// Err is nil while the controller manager runs, else how it ended with
// the end of its log: a test waiting on the controllers stops at once.
func (c *Controllers) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.exited {
		return nil
	}
	return fmt.Errorf("kube-controller-manager exited (%v); its log ends:\n%s", c.exitErr, c.Log())
}

// Log is the end of the controller manager's log, for a failure message.
func (c *Controllers) Log() string {
	b, _ := os.ReadFile(c.logFile)
	return string(tail(b, 3000))
}
