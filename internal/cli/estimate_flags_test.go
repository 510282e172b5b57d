package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEstimateRefusesAGivenZeroHeadroom: --headroom 0 was read as "not
// given" and planned no headroom without a word.
func TestEstimateRefusesAGivenZeroHeadroom(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"zero given", []string{"--rps", "100", "--headroom", "0"}, 2, "--headroom 0 is below 1"},
		{"not given", []string{"--rps", "100"}, 0, "100 req/s"},
		{"one", []string{"--rps", "100", "--headroom", "1"}, 0, "100 req/s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := main(append([]string{"estimate"}, tc.args...)...)
			if code != tc.wantCode || !strings.Contains(stdout+stderr, tc.want) {
				t.Fatalf("exit %d (want %d), output lacks %q:\n%s%s", code, tc.wantCode, tc.want, stdout, stderr)
			}
		})
	}
}

// TestEstimateWriteNamesTheTestForItsFile: every starter test was named
// "estimate", so `loadlens history` mixed all of them into one test.
func TestEstimateWriteNamesTheTestForItsFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ file, want string }{
		{"checkout-peak.yaml", "name: checkout-peak\n"},
		{"black friday.yml", "name: black-friday\n"},
		{"..yaml", "name: estimate\n"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			code, stdout, stderr := main("estimate", "--rps", "50", "--write", path, "--url", "http://127.0.0.1:8080/feed")
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Fatalf("%s lacks %q:\n%s", tc.file, tc.want, b)
			}
			if code, out, errOut := main("validate", path); code != 0 {
				t.Fatalf("the written test does not validate (exit %d):\n%s%s", code, out, errOut)
			}
		})
	}
}

// TestEstimateWriteKeepsAnExistingFile: --write replaced an existing file
// without a word (second trial); it is refused with exit 2 unless --force.
func TestEstimateWriteKeepsAnExistingFile(t *testing.T) {
	tests := []struct {
		name     string
		force    bool
		wantCode int
		want     string // in the output
		wantFile string // the file's start afterwards
	}{
		{"refused", false, 2, "exists; give --force", "my edited test"},
		{"forced", true, 0, "wrote ", "# Written by loadlens estimate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.yaml")
			if err := os.WriteFile(path, []byte("my edited test\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"estimate", "--rps", "50", "--write", path, "--url", "http://127.0.0.1:8080/feed"}
			if tc.force {
				args = append(args, "--force")
			}
			code, stdout, stderr := main(args...)
			if code != tc.wantCode || !strings.Contains(stdout+stderr, tc.want) {
				t.Fatalf("exit %d (want %d), output lacks %q:\n%s%s", code, tc.wantCode, tc.want, stdout, stderr)
			}
			b, err := os.ReadFile(path)
			if err != nil || !strings.HasPrefix(string(b), tc.wantFile) {
				t.Errorf("file starts %q (err %v), want %q", string(b[:min(len(b), 40)]), err, tc.wantFile)
			}
		})
	}
}
