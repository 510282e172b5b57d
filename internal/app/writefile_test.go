package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
)

func TestWriteFileIsWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte("the previous report"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("the new report")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "the new report" {
		t.Errorf("report.html holds %q", b)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("report.html mode %v (%v), want 0644", info.Mode(), err)
	}
	assertNoTempFiles(t, dir)

	// A path that cannot be written is named, and nothing is left behind.
	blocked := filepath.Join(dir, "report.html", "x.html") // its directory is a file
	err := WriteFile(blocked, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), blocked+" could not be written") {
		t.Errorf("writing under a file: %v", err)
	}
	assertNoTempFiles(t, dir)
}

func TestWriteFileWritesSpecialFilesInPlace(t *testing.T) {
	// Renaming over /dev/null (as root, in CI) would replace the device.
	if err := WriteFile(os.DevNull, []byte("discarded")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode().IsRegular() {
		t.Fatalf("%s is now %v (%v)", os.DevNull, info.Mode(), err)
	}
}

func TestOutputsWriteEveryFileItCan(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}}}
	in := &report.Input{Name: "x", Run: metrics.NewRun(layout)}
	o := Outputs{HTML: filepath.Join(dir, "file", "report.html"), JUnit: filepath.Join(dir, "junit.xml"), SummaryMD: filepath.Join(dir, "summary.md")}
	err := o.write(in)
	if err == nil || !strings.Contains(err.Error(), "report.html could not be written") {
		t.Errorf("error %v, want one naming report.html", err)
	}
	for _, name := range []string{"junit.xml", "summary.md"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s was not written after report.html failed: %v", name, err)
		}
	}
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(tmp) > 0 {
		t.Errorf("temporary files left behind: %v", tmp)
	}
}
