//go:build !unix

package testkit

// limitSpace does nothing where address space cannot be capped.
func limitSpace(uint64) {}
