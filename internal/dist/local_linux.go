//go:build linux

package dist

import "syscall"

// dieWithParent has the kernel kill a local agent when the thread that
// started it ends: with the coordinator, however it dies (kill -9 too).
// spawner keeps that thread alive as long as the agents.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
