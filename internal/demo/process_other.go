//go:build !unix

package demo

// processCPUSeconds is unknown on this platform.
func processCPUSeconds() (float64, bool) { return 0, false }

// residentBytes is unknown on this platform.
func residentBytes() (float64, bool) { return 0, false }
