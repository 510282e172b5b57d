//go:build unix

package store

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// nobody is the user the root-run test drops to: root may write anything.
const nobody = 65534

// asNobody runs TestReadOnlyRunDirectory's check on path in a copy of the
// test binary as user nobody, since root cannot be denied a write.
func asNobody(t *testing.T, path string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "store.test")
	copyFile(t, os.Args[0], bin)
	// t.TempDir makes its directories 0700; nobody must reach both files.
	for _, dir := range []string{filepath.Dir(bin), filepath.Dir(filepath.Dir(bin)), filepath.Dir(filepath.Dir(path))} {
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run=^TestReadOnlyRunDirectory$", "-test.count=1")
	cmd.Env = append(os.Environ(), roDirEnv+"="+path, "TMPDIR="+os.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("reading as user %d: %v\n%s", nobody, err, out)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close() }()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
