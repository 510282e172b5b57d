//go:build !unix

package testkit

import "testing"

// CPUMeter reports nothing where getrusage is not available.
func CPUMeter(b *testing.B) func() { return func() {} }
