//go:build !linux

package faultserver

import "testing"

// Unaccepting skips the test: a listener whose backlog drops connects is
// made with Linux's socket semantics.
func Unaccepting(tb testing.TB) string {
	tb.Helper()
	tb.Skip("an unaccepting listener needs Linux")
	return ""
}
