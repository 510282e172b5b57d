package dist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadTestSendsBodyFiles: a step's body_file goes to the agents beside
// the test, as a data file does, and one outside the test's directory is
// refused before anything runs.
func TestLoadTestSendsBodyFiles(t *testing.T) {
	tests := []struct {
		name, path, wantErr string
	}{
		{"beside the test", "order.bin", ""},
		{"outside the test's directory", "../order.bin", "body file ../order.bin: a distributed run sends the test's files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			yaml := "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    iterations: 1\n    flow:\n      - post: /o\n        body_file: " + tt.path + "\n"
			path := writeTest(t, yaml, nil)
			if err := os.WriteFile(filepath.Join(filepath.Dir(path), tt.path), []byte("\xff\x00order"), 0o600); err != nil {
				t.Fatal(err)
			}
			_, j, err := loadTest(path, nil, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(j.Files[tt.path]); got != "\xff\x00order" {
				t.Errorf("sent %q as %s, want the file's bytes (files: %d)", got, tt.path, len(j.Files))
			}
		})
	}
}
