package dist

import (
	"path/filepath"

	"github.com/loadlens/loadlens/internal/boundedfile"
)

// outsideError is a file whose path is below a directory while the file
// it leads to, symlinks followed, is not.
type outsideError struct{ real string }

func (e *outsideError) Error() string { return e.real + " is outside the directory" }

// resolveBelow returns the real path of rel in dir, symlinks followed in
// both, or an *outsideError when it is not below dir's real path: the
// lexical check alone let a link to /etc/shadow through.
func resolveBelow(dir, rel string) (string, error) {
	realDir, err := realPath(dir)
	if err != nil {
		return "", err
	}
	real, err := realPath(filepath.Join(dir, rel))
	if err != nil {
		return "", err
	}
	if r, err := filepath.Rel(realDir, real); err != nil || !filepath.IsLocal(r) {
		return "", &outsideError{real: real}
	}
	return real, nil
}

// realPath is path made absolute with every symlink in it followed.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	return real, boundedfile.Cause(err)
}
