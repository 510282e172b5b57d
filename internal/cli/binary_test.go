package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the loadlens binary the agents (and the Ctrl-C test) run, built
// once for the package's tests: each of the five that run it linked its own
// (seconds each on a busy 2-core machine), and none writes beside it.
var built struct {
	once      sync.Once
	dir, path string
	err       error
}

// buildLoadlens returns the binary, building it on the first call.
func buildLoadlens(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "loadlens-cli-test"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "loadlens")
		if out, err := exec.Command("go", "build", "-o", built.path, "../../cmd/loadlens").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatalf("building loadlens: %v", built.err)
	}
	return built.path
}

// TestMain removes the binary after the package's tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
