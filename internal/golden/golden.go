// Package golden compares what a test renders or returns with a golden
// file, for the tests of every package that keeps its output in testdata:
// `go test ./internal/<pkg> -update` rewrites the files, and the change is
// read in the diff. Only tests import it.
package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file at path, writing got there first when
// update is set.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update accepts it):\n%s", path, got)
	}
}

// JSON is Check of v encoded as indented JSON, ending with a newline.
func JSON(t testing.TB, path string, v any, update bool) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	Check(t, path, append(got, '\n'), update)
}
