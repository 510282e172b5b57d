package plan

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

var update = flag.Bool("update", false, "rewrite the .err goldens of testdata/invalid from what Parse says")

// corpusMachine is the machine the corpus is checked against, so that the
// machine-limit errors do not depend on where the tests run.
var corpusMachine = Machine{MemAvailable: 4 << 30, OpenFiles: 100000, CPUs: 2}

// TestMalformedCorpus parses every file in testdata/invalid and compares
// the errors, every one with its file:line:col, to NAME.err.
func TestMalformedCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("found %d malformed files, want at least 40", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			_, err := ParseFileFor(corpusMachine, f, noEnv)
			if err == nil {
				t.Fatal("parsed without an error")
			}
			got := err.Error() + "\n"
			golden := strings.TrimSuffix(f, ".yaml") + ".err"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestMalformedCorpus -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("errors:\n%s\nwant (%s):\n%s", got, golden, want)
			}
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !strings.HasPrefix(line, f+":") {
					t.Errorf("error does not name the file: %q", line)
				}
			}
		})
	}
}

// TestMalformedCorpusGenerated covers the inputs too large to commit: they
// are made here, written to a file and refused by name.
func TestMalformedCorpusGenerated(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("# padding to pass the size limit\n", yamldoc.MaxFileSize/33+1)
	entries := "x-many:\n" + strings.Repeat("  - a\n", yamldoc.MaxEntries+1)
	deep := "x-deep: " + strings.Repeat("[", 32768) + strings.Repeat("]", 32768) + "\n"
	tests := []struct{ name, src, want string }{
		{"size", big, "big.yaml: the test file is 10.0 MiB; a test file may be at most 10 MiB (put large data in a CSV file, under data:)"},
		{"entries", entries, "entries.yaml:50001:1: the file has more than 50000 YAML entries (keys and list items); a test file needs far fewer (put large data in a CSV file, under data:)"},
		{"deep", deep, "deep.yaml:1:72: the YAML nests more than 64 levels deep; a test file needs far fewer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".yaml")
			if tt.name == "size" {
				path = filepath.Join(dir, "big.yaml")
			}
			if err := os.WriteFile(path, []byte(tt.src), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := ParseFileFor(corpusMachine, path, noEnv)
			if want := filepath.Join(dir, tt.want); err == nil || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
		})
	}
}
