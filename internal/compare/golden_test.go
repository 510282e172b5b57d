package compare

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenReport compares a baseline with a rerun of the same server and a
// slower server run at a higher load.
func goldenReport(t *testing.T) *Report {
	t.Helper()
	a := synth{seed: 1, model: "arrival-rate", load: ramp(50, 5, 30, 3), errProb: 0.01}.input("before")
	b := synth{seed: 2, model: "arrival-rate", load: ramp(50, 5, 30, 3), errProb: 0.01}.input("after")
	c := synth{seed: 3, model: "arrival-rate", load: ramp(80, 5, 30, 3), slow: 1.3, errProb: 0.03}.input("slower <at> 80 req/s")
	r, err := Compare([]Input{a, b, c}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// goldenGroupsReport compares three runs of a server with three of one
// 30 % slower, the runs as replicates.
func goldenGroupsReport(t *testing.T) *Report {
	t.Helper()
	var a, b []Input
	for i := range uint64(3) {
		a = append(a, synth{seed: 10 + i, model: "arrival-rate", load: ramp(40, 3, 20, 2), runSlow: 0.03}.input(fmt.Sprintf("before-%d", i+1)))
		b = append(b, synth{seed: 20 + i, model: "arrival-rate", load: ramp(40, 3, 20, 2), runSlow: 0.03, slow: 1.3}.input(fmt.Sprintf("after-%d", i+1)))
	}
	r, err := CompareGroups([][]Input{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGoldenOutputs(t *testing.T) {
	text := func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }
	tests := []struct {
		file   string
		report func(*testing.T) *Report
		write  func(*bytes.Buffer, *Report) error
	}{
		{"compare.txt", goldenReport, text},
		{"compare.md", goldenReport, func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }},
		{"compare.json", goldenReport, func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
		{"compare-groups.txt", goldenGroupsReport, text},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.write(&got, tc.report(t)); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/compare -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from the golden file (go test ./internal/compare -update to accept):\n%s", tc.file, got.String())
			}
		})
	}
}
