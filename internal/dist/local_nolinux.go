//go:build unix && !linux

package dist

import "syscall"

// dieWithParent does nothing where there is no parent-death signal: the
// agents stop their load within DefaultSilence of losing their coordinator.
func dieWithParent(*syscall.SysProcAttr) {}
