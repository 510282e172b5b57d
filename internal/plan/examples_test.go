package plan

import (
	"path/filepath"
	"testing"
)

// TestExamplesParse parses every test file in examples/, which the docs
// point users at, so they cannot rot.
func TestExamplesParse(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("found %d example files, want at least 4", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p, err := ParseFile(f, noEnv)
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if len(p.Scenarios) == 0 || len(p.Layout.Endpoints) == 0 {
				t.Errorf("parsed to %d scenarios and %d endpoints, want some of each", len(p.Scenarios), len(p.Layout.Endpoints))
			}
		})
	}
}

// noEnv is an environment with no variables set.
func noEnv(string) (string, bool) { return "", false }
