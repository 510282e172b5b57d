package compare

import (
	"bytes"
	"flag"
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

func TestGoldenOutputs(t *testing.T) {
	tests := []struct {
		file  string
		write func(*bytes.Buffer, *Report) error
	}{
		{"compare.txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
		{"compare.md", func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }},
		{"compare.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.write(&got, goldenReport(t)); err != nil {
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
