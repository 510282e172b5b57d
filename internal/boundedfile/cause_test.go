package boundedfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCause: a missing file's error loses its "open PATH: " once Cause
// drops the *fs.PathError, and any other error passes as it is.
func TestCause(t *testing.T) {
	_, missing := Read(filepath.Join(t.TempDir(), "none"), 10, true)
	other := fmt.Errorf("not a regular file (a device)")
	for _, tc := range []struct {
		in   error
		want string
	}{
		{missing, "no such file or directory"},
		{other, other.Error()},
		{nil, "<nil>"},
	} {
		got := Cause(tc.in)
		if fmt.Sprint(got) != tc.want {
			t.Errorf("Cause(%v) = %v, want %q", tc.in, got, tc.want)
		}
	}
	if !errors.Is(Cause(missing), os.ErrNotExist) {
		t.Errorf("Cause(%v) is no longer os.ErrNotExist", missing)
	}
}
