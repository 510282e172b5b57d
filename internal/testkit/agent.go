package testkit

import (
	"bufio"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// StartAgent starts cmd, a `loadlens agent` process, and returns the
// address it says it listens on ("agent: listening on ADDR; ..."). Its
// stdout, and its stderr unless cmd already has one, go to out line by
// line while it runs. The caller ends the process.
func StartAgent(cmd *exec.Cmd, out *Buffer) (string, error) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if cmd.Stderr == nil {
		cmd.Stderr = out
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	listening := make(chan string, 1)
	go func() {
		defer close(listening)
		sc := bufio.NewScanner(stdout)
		said := false
		for sc.Scan() {
			fmt.Fprintln(out, sc.Text())
			if addr, ok := strings.CutPrefix(sc.Text(), "agent: listening on "); ok && !said {
				said = true
				addr, _, _ = strings.Cut(addr, ";")
				listening <- addr
			}
		}
	}()
	select {
	case addr, ok := <-listening:
		if !ok {
			return "", fmt.Errorf("the agent ended without saying where it listens; its output: %s", out.String())
		}
		return addr, nil
	case <-time.After(30 * time.Second):
		return "", fmt.Errorf("the agent did not say where it listens within 30s; its output: %s", out.String())
	}
}
