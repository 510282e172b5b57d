package curl

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/units"
)

// readText reads a file a curl option copies into the test (-d @file,
// -F name=<file, -F name=@file) when it is a regular text file of at most
// importer.MaxLocalFile bytes, and records it in r.files as going into
// what, so the import says which files it read; otherwise it says why not.
func (r *request) readText(path, what string, skipped func(why string)) (string, bool) {
	b, err := readLocal(path)
	switch {
	case err != nil:
		skipped(fmt.Sprintf("the file cannot be read (%v)", err))
		return "", false
	case !utf8.Valid(b) || strings.ContainsRune(string(b), 0):
		skipped("the file is binary; a test file holds text")
		return "", false
	}
	r.files = append(r.files, importer.LocalFile{Path: path, Size: int64(len(b)), Into: what})
	return string(b), true
}

// readLocal reads a regular file of at most importer.MaxLocalFile bytes.
// Devices and pipes are refused before they are opened: /dev/zero never
// ends, and opening a named pipe waits for a writer.
func readLocal(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said already
		}
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (a device, a pipe or a directory)")
	}
	tooBig := func(n int64) error {
		return fmt.Errorf("it is %s; an import copies at most %s of a file into a test (name a larger one with body_file:)",
			units.CountOf(n, "byte", "bytes"), units.Size(importer.MaxLocalFile))
	}
	if info.Size() > importer.MaxLocalFile {
		return nil, tooBig(info.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, importer.MaxLocalFile+1)) // the file may have grown since
	if err != nil {
		return nil, err
	}
	if len(b) > importer.MaxLocalFile {
		return nil, tooBig(int64(len(b)))
	}
	return b, nil
}
