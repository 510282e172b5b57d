package curl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/testkit"
)

// TestImportCurlSaysWhichFilesItRead: a file a command names (-d @file,
// -F name=<file, -F name=@file) is copied into the test only when it is a
// regular text file of at most 1 MiB, and each one copied is listed with
// its size (in Test.Read and in the file's opening comment); /dev/zero, a
// named pipe no one writes, and a 1 GiB file (sparse: nothing is written)
// are refused without being read. Before, -d @/etc/passwd went into the
// body without a word, and -d @/dev/zero read until memory ran out.
func TestImportCurlSaysWhichFilesItRead(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "secret.txt")
	os.WriteFile(text, []byte("root:x:0:0\n"), 0o600)
	huge := filepath.Join(dir, "huge.json")
	f, _ := os.Create(huge)
	f.Truncate(1 << 30)
	f.Close()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, cmd string
		read      []importer.LocalFile
		skipped   string
	}{
		{"data", "curl http://h/x --data @" + text, []importer.LocalFile{{Path: text, Size: 11, Into: "command 1: the body, --data"}}, ""},
		{"form field", "curl http://h/x -F 'a=<" + text + "'", []importer.LocalFile{{Path: text, Size: 11, Into: "command 1: the form field a"}}, ""},
		{"form file", "curl http://h/x\ncurl http://h/y -F 'a=@" + text + "'", []importer.LocalFile{{Path: text, Size: 11, Into: "command 2: the file part a"}}, ""},
		{"a device", "curl http://h/x --data-binary @/dev/zero", nil, "not a regular file"},
		{"a named pipe", "curl http://h/x --data @" + pipe, nil, "not a regular file"},
		{"1 GiB", "curl http://h/x --data @" + huge, nil, "it is 1,073,741,824 bytes; an import copies at most 1 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan *importer.Test, 1)
			go func() { tst, _ := Import(c.cmd); done <- tst }()
			var tst *importer.Test
			select {
			case tst = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the import did not end within 10 s")
			}
			if tst == nil {
				t.Fatal("the import failed")
			}
			if len(tst.Read) != len(c.read) || (len(c.read) > 0 && tst.Read[0] != c.read[0]) {
				t.Errorf("read %+v, want %+v", tst.Read, c.read)
			}
			out, err := importer.Render(tst, "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range c.read {
				if !strings.Contains(string(out), "#   - "+r.String()+"\n") {
					t.Errorf("the opening comment does not list %s:\n%s", r, out)
				}
			}
			if got := strings.Join(tst.NotConverted, "\n"); !strings.Contains(got, c.skipped) {
				t.Errorf("not converted %q, want it to say %q", got, c.skipped)
			}
		})
	}
}

// TestImportCurlManyCommandsIsBounded: 15 MiB of curl lines (315,000
// commands) are read one statement at a time and refused past 10,000, in
// a process that holds little memory; before, the whole text was parsed
// into one tree and every command made a step (637 MB, then refused by
// the test file's size).
func TestImportCurlManyCommandsIsBounded(t *testing.T) {
	if _, ok := testkit.PeakChild(); ok {
		var b strings.Builder
		for i := 0; b.Len() < 15<<20; i++ {
			fmt.Fprintf(&b, "curl http://h/p%d -H 'X-A: %d' -d a=%d\n", i, i, i)
		}
		_, err := Import(b.String())
		if want := "more than 10,000 curl commands"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want %q", err, want)
		}
		testkit.ReportPeak()
		return
	}
	if peak := testkit.PeakMemory(t, "15 MiB of curl lines", time.Minute); peak > 128<<20 {
		t.Errorf("the import held %d MiB at its peak, want at most 128 MiB", peak>>20)
	}
}
