package web

import (
	"os"
	"os/exec"
	"testing"
)

// needNode returns node's path for the tests that run the pages' scripts.
// Without node they skip, but not in CI (LOADLENS_CI=1), where .ci/run
// installs it: there a missing node is a failure, never a silent skip.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal("node is not installed, and LOADLENS_CI=1 needs it (see .ci/apt-packages)")
		}
		t.Skip("node is not installed")
	}
	return node
}
