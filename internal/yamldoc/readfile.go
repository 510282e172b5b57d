package yamldoc

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

// ReadLimited reads the file at path, refusing one larger than limit from
// its size before reading it (reading up to the limit first took 625 MB
// to refuse a 300 MB file), and one that grows past it while read, with a
// *TooLargeError; regularOnly also refuses devices, pipes and directories
// (/dev/zero never ends). The file is read in one allocation of its size.
func ReadLimited(path string, limit int64, regularOnly bool) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if regularOnly && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
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
