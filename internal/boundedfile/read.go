// Package boundedfile reads the files a user names (test files, bodies,
// configs, protosets) with a size bound, refusing one too large, a device
// or a named pipe before reading it, so memory and time stay bounded
// whatever the path holds.
package boundedfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// TooLargeError is a file over a reader's limit: Size is its size, or,
// when AtLeast, what was read of it before the limit stopped the read (a
// file that grew, or a pipe whose size Stat does not know).
type TooLargeError struct {
	Size    int64
	AtLeast bool
}

func (e *TooLargeError) Error() string {
	more := ""
	if e.AtLeast {
		more = "more than "
	}
	return fmt.Sprintf("%s%d bytes", more, e.Size)
}

// Read reads the file at path, refusing one larger than limit from
// its size before reading it (reading up to the limit first took 625 MB
// to refuse a 300 MB file), and one that grows past it while read, with a
// *TooLargeError; regularOnly also refuses devices, pipes and directories
// (/dev/zero never ends) from a Stat before the open (opening a named pipe
// waits for a writer). The file is read in one allocation of its size.
func Read(path string, limit int64, regularOnly bool) ([]byte, error) {
	if regularOnly {
		if err := isRegular(os.Stat(path)); err != nil {
			return nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if regularOnly {
		if err := isRegular(st, nil); err != nil { // it was replaced since
			return nil, err
		}
	}
	if st.Size() > limit {
		return nil, &TooLargeError{Size: st.Size()}
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, &TooLargeError{Size: int64(buf.Len()), AtLeast: true}
	}
	return buf.Bytes(), nil
}

// isRegular refuses what Stat found to be no regular file.
func isRegular(st os.FileInfo, err error) error {
	switch {
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return fmt.Errorf("not a regular file (%s)", kindOf(st.Mode()))
	}
	return nil
}

// kindOf names a file mode's type as a user knows it.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
