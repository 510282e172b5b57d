//go:build !(linux || darwin || freebsd)

package app

// fileSizeLimit is not known on this platform.
func fileSizeLimit() (int64, bool) { return 0, false }

// freeSpace is not known on this platform.
func freeSpace(string) (int64, bool) { return 0, false }
