//go:build !unix

package dist

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// ownGroup leaves the agent in the coordinator's group where there are no process groups.
func ownGroup(*exec.Cmd) {}

// tokenSource is how a local agent gets the token: a file only this user
// can read, in the agents' directory, which Stop removes.
func tokenSource(dir, token string) (file string, stdin io.Reader, err error) {
	file = filepath.Join(dir, "token")
	return file, nil, os.WriteFile(file, []byte(token), 0o600)
}

// processAlive says every process may run: without a portable check, no
// directory is taken for a dead coordinator's.
func processAlive(int) bool { return true }
