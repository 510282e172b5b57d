package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder keeps a test's failures instead of failing it.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.txt")
	cases := []struct {
		name   string
		got    string
		update bool
		fail   bool
	}{
		{"no file yet", "a\n", false, true},
		{"written with update", "a\n", true, false},
		{"the same", "a\n", false, false},
		{"different", "b\n", false, true},
	}
	for _, c := range cases {
		r := &recorder{TB: t}
		Check(r, path, []byte(c.got), c.update)
		if r.failed != c.fail {
			t.Errorf("%s: failed %v, want %v", c.name, r.failed, c.fail)
		}
	}
	JSON(t, filepath.Join(t.TempDir(), "v.json"), map[string]int{"n": 1}, true)
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\n" {
		t.Errorf("the golden file holds %q (%v), want what update wrote", b, err)
	}
}
