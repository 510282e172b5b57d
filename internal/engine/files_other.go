//go:build !unix

package engine

// openFileLimit returns 0: no open-file limit is known here.
func openFileLimit() int64 { return 0 }
