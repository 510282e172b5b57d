//go:build unix

package dist

import (
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
)

// ownGroup puts a local agent in a process group of its own, so Ctrl-C on
// the terminal reaches the coordinator only, which then stops the agents
// in order and keeps their last seconds; and, where the system can, has it
// killed when the coordinator dies (dieWithParent).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// tokenSource is how a local agent gets the token: on its standard input,
// read as the file /dev/stdin, so that it is on no command line and in no
// file that could outlive the run.
func tokenSource(_, token string) (file string, stdin io.Reader, err error) {
	return "/dev/stdin", strings.NewReader(token + "\n"), nil
}

// processAlive reports whether process pid runs (another user's counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
