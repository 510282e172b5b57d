//go:build unix

package dist

import (
	"os/exec"
	"syscall"
)

// ownGroup puts a local agent in a process group of its own, so Ctrl-C on
// the terminal reaches the coordinator only, which then stops the agents
// in order and keeps their last seconds.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
