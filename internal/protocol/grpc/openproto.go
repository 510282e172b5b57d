package grpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/loadlens/loadlens/internal/boundedfile"
)

// maxProtoFile bounds one .proto file, imports included: the largest
// public ones are a few hundred KiB.
const maxProtoFile = 16 << 20

// openProto opens a .proto file (one a step names, or one it imports)
// that is a regular file, refused from a Stat before the open: a named
// pipe would hold the run's start waiting for a writer, /dev/zero would be
// read without end. A missing file's error is the Stat's *fs.PathError,
// as it is, so the compiler still looks in the next import path.
func openProto(path string) (io.ReadCloser, error) {
	b, err := boundedfile.Read(path, maxProtoFile, true)
	var big *boundedfile.TooLargeError
	var pe *fs.PathError
	switch {
	case errors.As(err, &big):
		return nil, fmt.Errorf("%s is %s; a .proto file may be at most %d MiB", path, big, maxProtoFile>>20)
	case errors.As(err, &pe):
		return nil, err
	case err != nil: // not a regular file, an error that does not name the file
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}
