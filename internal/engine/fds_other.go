//go:build !linux

package engine

// openFDs returns -1: the descriptors held are not counted here.
func openFDs() int64 { return -1 }
