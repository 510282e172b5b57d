//go:build !unix

package store

import "testing"

func asNobody(t *testing.T, _ string) {
	t.Skip("running as root, and this platform cannot drop to another user")
}
