//go:build unix

package testkit

import (
	"bufio"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// StartRedis starts a redis-server without persistence on a free port of
// 127.0.0.1 and returns its address once it says it accepts connections.
func StartRedis(t *testing.T) string {
	t.Helper()
	bin := Need(t, "redis-server")
	port := freePort(t)
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var seen []string
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ready to accept connections") {
				ready <- nil
				for sc.Scan() { // keep draining so the server never blocks on its log
				}
				return
			}
			seen = append(seen, sc.Text())
		}
		ready <- fmt.Errorf("redis-server exited before it was ready:\n%s", strings.Join(seen, "\n"))
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("redis-server was not ready within 30s")
	}
	return fmt.Sprintf("127.0.0.1:%d", port)
}
