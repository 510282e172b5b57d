//go:build !unix

package h1

import "syscall"

// idleCheck is a no-op where a non-blocking peek is not available: only
// bytes already buffered keep a connection from being reused there.
type idleCheck struct{}

func (ic *idleCheck) init(sc syscall.Conn) {}

func (ic *idleCheck) quiet() bool { return true }
