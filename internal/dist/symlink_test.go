package dist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSentFilesFollowSymlinks: a body or data file beside the test that is
// a symlink out of the test's directory is refused at its key, naming the
// file, line and field (a link to /etc/shadow once sent its content to the
// agents and the target); a link that stays inside, or a test reached
// through a linked directory, is sent.
func TestSentFilesFollowSymlinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("user\nroot:secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	realOutside, err := filepath.EvalSymlinks(outside) // as the error names it, should the temporary directory be a link
	if err != nil {
		t.Fatal(err)
	}
	body := "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    iterations: 1\n    flow:\n      - post: /o\n        body_file: link\n"
	data := "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    iterations: 1\n    data: {file: link}\n    flow:\n      - post: /o\n"
	tests := []struct {
		name, yaml, target string // target: the link's, relative to the test's directory unless absolute
		viaDirLink         bool   // the test is named through a symlink to its directory
		wantErr            string
	}{
		{"a body file linked outside", body, outside, false,
			"test.yaml:7:20: scenarios.s.flow[0].body_file: body file link leads to " + realOutside + ", outside the test file's directory"},
		{"a data file linked outside", data, outside, false,
			"test.yaml:5:18: scenarios.s.data.file: data file link leads to " + realOutside + ", outside the test file's directory"},
		{"a link that stays inside", body, "inside.txt", false, ""},
		{"the test's directory reached through a link", body, "inside.txt", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTest(t, tt.yaml, map[string]string{"inside.txt": "col\nv\n"})
			dir := filepath.Dir(path)
			if err := os.Symlink(tt.target, filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			if tt.viaDirLink {
				linked := filepath.Join(t.TempDir(), "linked")
				if err := os.Symlink(dir, linked); err != nil {
					t.Fatal(err)
				}
				path = filepath.Join(linked, "test.yaml")
			}
			_, j, err := loadTest(path, nil, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "root:secret") {
					t.Errorf("the error shows the file's content: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(j.Files["link"]); got != "col\nv\n" {
				t.Errorf("sent %q as link, want the linked file's content", got)
			}
		})
	}
}
