package curl

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/boundedfile"
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
	b, err := boundedfile.Read(path, importer.MaxLocalFile, true)
	var pe *fs.PathError
	var tl *boundedfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, fmt.Errorf("it is %s%s; an import copies at most %s of a file into a test (name a larger one with body_file:)",
			more(tl.AtLeast), units.CountOf(tl.Size, "byte", "bytes"), units.Size(importer.MaxLocalFile))
	case errors.As(err, &pe):
		return nil, pe.Err // the path is said already
	}
	return b, err
}

// more words a size that is a lower bound.
func more(atLeast bool) string {
	if atLeast {
		return "more than "
	}
	return ""
}
