package demorun

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/loadlens/loadlens/internal/demo"
)

// shopReadyLine starts the line `demo --serve` prints once it listens.
const shopReadyLine = "demo shop listening on "

// shopHandle is a running demo shop, in this process or its own.
type shopHandle struct {
	url   string
	close func()
}

// startShop starts the shop the way cfg says.
func startShop(ctx context.Context, cfg DemoConfig) (*shopHandle, error) {
	if len(cfg.ShopCommand) == 0 {
		t, err := demo.Start(ctx, cfg.Shop)
		if err != nil {
			return nil, err
		}
		return &shopHandle{url: t.URL, close: func() { t.Close() }}, nil
	}
	return spawnShop(cfg.ShopCommand)
}

// spawnShop runs the shop as a child process and waits for its address.
func spawnShop(command []string) (*shopHandle, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the demo shop: %w", err)
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), shopReadyLine); ok {
				found <- strings.Fields(rest)[0]
				break
			}
		}
		io.Copy(io.Discard, stdout) // keep the pipe drained while the shop runs
		close(found)
	}()
	select {
	case url, ok := <-found:
		if ok {
			return &shopHandle{url: url, close: stop}, nil
		}
		stop()
		return nil, errors.New("the demo shop exited before it listened")
	case <-time.After(60 * time.Second):
		stop()
		return nil, errors.New("the demo shop did not start within a minute")
	}
}
