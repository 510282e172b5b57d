package store

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readAll opens path and reads everything a summary, compare, export or
// report reads, then closes it.
func readAll(path string) error {
	r, err := Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = r.Close() }()
	if _, err := r.Run(); err != nil {
		return err
	}
	if _, err := r.Series(); err != nil {
		return err
	}
	if _, err := r.ScrapeErrors(); err != nil {
		return err
	}
	_, err = r.Traces()
	return err
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// finishedRun writes a closed run.db, with an optional leftover file of
// the kind older readers or a killed writer leave beside it.
func finishedRun(t *testing.T, leftovers ...string) string {
	t.Helper()
	w, path := create(t, 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range leftovers {
		if err := os.WriteFile(path+name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// A reader leaves a run directory as it found it: no -shm, no -wal.
func TestReadingLeavesNoFiles(t *testing.T) {
	for _, leftovers := range [][]string{nil, {"-wal", "-shm"}} {
		path := finishedRun(t, leftovers...)
		before := dirNames(t, filepath.Dir(path))
		for i := range 2 {
			if err := readAll(path); err != nil {
				t.Fatalf("read %d: %v", i, err)
			}
		}
		if after := dirNames(t, filepath.Dir(path)); !slices.Equal(before, after) {
			t.Errorf("leftovers %q: the directory held %q before reading and %q after", leftovers, before, after)
		}
	}
}

// A run still being written is read through its WAL: the reader sees the
// seconds the writer has committed and not yet checkpointed.
func TestReadingALiveRun(t *testing.T) {
	w, path := create(t, 4)
	t.Cleanup(func() { _ = w.Close() })
	r := open(t, path)
	run, err := r.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Series) != 4 {
		t.Errorf("a live run read %d seconds, want the 4 written", len(run.Series))
	}
}

// roDirEnv names the run.db the child test reads as an unprivileged user.
const roDirEnv = "LOADLENS_STORE_READONLY_RUNDB"

// A run directory this user cannot write (a CI artifact) is readable, and
// a file this user cannot read is named as such.
func TestReadOnlyRunDirectory(t *testing.T) {
	if path := os.Getenv(roDirEnv); path != "" {
		checkReadOnly(t, path)
		return
	}
	for _, leftovers := range [][]string{nil, {"-wal", "-shm"}} {
		path := finishedRun(t, leftovers...)
		dir := filepath.Dir(path)
		for _, name := range dirNames(t, dir) {
			if err := os.Chmod(filepath.Join(dir, name), 0o444); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		if os.Geteuid() != 0 {
			checkReadOnly(t, path)
			continue
		}
		asNobody(t, path)
	}
}

func checkReadOnly(t *testing.T, path string) {
	t.Helper()
	if err := readAll(path); err != nil {
		t.Errorf("reading a run.db in a directory this user cannot write: %v", err)
	}
	if err := os.Chmod(path, 0o644); err == nil {
		t.Fatal("this user can change the run.db; the test cannot check a read-only directory")
	}
	unreadable := filepath.Join(t.TempDir(), "run.db")
	if err := os.WriteFile(unreadable, nil, 0o200); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(unreadable); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("opening a run.db this user cannot read: %v; want it to say permission denied", err)
	}
}
