package boundedfile

import (
	"errors"
	"io/fs"
)

// Cause drops a *fs.PathError's operation and path from err, for a caller
// whose message names the file already ("open x: no such file" said once).
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
