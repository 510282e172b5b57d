package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/testkit"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

func TestParseAcceptsTheLimits(t *testing.T) {
	src := "x-a: " + strings.Repeat("[", yamldoc.MaxDepth-1) + strings.Repeat("]", yamldoc.MaxDepth-1) + "\n" + head + getX
	if _, err := Parse("t.yaml", []byte(src), nil); err != nil {
		t.Errorf("%d levels: %v", yamldoc.MaxDepth, err)
	}
	bom := "\xef\xbb\xbf" + head + "      - get: /{{ nope }}\n"
	_, err := Parse("t.yaml", []byte(bom), nil)
	want := `t.yaml:7:18: scenarios.s.flow[0].get: unknown variable "nope" (no variables are defined)`
	if err == nil || err.Error() != want {
		t.Errorf("with a BOM: error %v, want %q (columns counted after the BOM)", err, want)
	}
	p, err := Parse("t.yaml", []byte("\xef\xbb\xbf"+head+getX), nil)
	if err != nil || len(p.Scenarios) != 1 {
		t.Fatalf("with a BOM: %v", err)
	}
}

func TestParseFileRefusesALargeFileWithoutReadingIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil { // sparse: 50 MB on paper, nothing written
		t.Fatal(err)
	}
	f.Close()
	var perr error
	n := testkit.Allocated(func() { _, perr = ParseFile(path, nil) })
	var e *yamldoc.Error
	want := path + ": the test file is 50.0 MiB; a test file may be at most 10 MiB (put large data in a CSV file, under data:)"
	if !errors.As(perr, &e) || perr.Error() != want {
		t.Fatalf("error %v, want %q", perr, want)
	}
	if n > 64<<10 {
		t.Errorf("refusing a 50 MB file allocated %d bytes, want at most 64 KiB", n)
	}
	if _, err := ParseFile(filepath.Join(t.TempDir(), "missing.yaml"), nil); err == nil || !strings.Contains(err.Error(), "cannot read the test file: no such file or directory") {
		t.Errorf("a missing file: %v", err)
	}
}
