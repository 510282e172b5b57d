package store

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestReadsVersion1 reads a run.db written by the build before schema
// version 2 (testdata/v1.run.db: testMeta, the 3 seconds of snapshots with
// one timeout of endpoint 1 in second 2, finished with one failed
// threshold), so that runs kept as CI artifacts stay readable.
func TestReadsVersion1(t *testing.T) {
	// A copy: even a read-only open may leave WAL files beside the fixture.
	path := filepath.Join(t.TempDir(), "run.db")
	src, err := os.Open("testdata/v1.run.db")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	r := open(t, path)
	if r.version != 1 {
		t.Fatalf("the fixture reads as schema version %d, want 1", r.version)
	}
	if m := r.Meta(); m.Name != "smoke" || len(m.Layout.Endpoints) != 2 {
		t.Errorf("meta %+v", m)
	}
	fin, ok := r.Finish()
	if !ok || fin.Status != "completed" || fin.ExitCode != 99 || fin.Elapsed != 3*time.Second || len(fin.Thresholds) != 1 ||
		fin.Thresholds[0].Pass || fin.Thresholds[0].Observed != 3 || fin.Thresholds[0].Reason != "" {
		t.Errorf("finish %+v, %v", fin, ok)
	}
	if fin.NoticesKept || fin.Notices != nil {
		t.Errorf("a version 1 file reads as keeping notices %q", fin.Notices)
	}
	run, err := r.Run()
	if err != nil {
		t.Fatal(err)
	}
	tot := run.Total()
	if len(run.Series) != 3 || tot.Requests != 1+2+3+1 || tot.Failures[sample.Timeout] != 1 || tot.Truncated != 0 || tot.Received != 600 {
		t.Errorf("run of %d seconds: %+v", len(run.Series), tot)
	}
}
