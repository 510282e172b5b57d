//go:build !unix

package mock

// processCPU is not measured off unix.
func processCPU() (float64, bool) { return 0, false }
