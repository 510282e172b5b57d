package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// flavour is one way of building the product binary.
type flavour struct {
	Name  string   // how the page names it
	Flags []string // go build's flags before the package
	Env   []string // added to the environment
}

// flavours are the two builds that matter: `go build` as a developer types
// it (the 79.5 MB), and the Dockerfile's, which the agent image
// ships.
var flavours = []flavour{
	{Name: "go build ./cmd/loadlens", Flags: nil},
	{Name: "image build (CGO_ENABLED=0 -trimpath -ldflags=\"-s -w\")", Flags: []string{"-trimpath", "-ldflags=-s -w"}, Env: []string{"CGO_ENABLED=0"}},
}

// build compiles pkg in the module at dir into out with f's flags.
func build(dir, pkg, out string, f flavour, tags string) error {
	args := append([]string{"build", "-o", out}, f.Flags...)
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), f.Env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %v in %s: %w\n%s", args, dir, err, b)
	}
	return nil
}

// checkout writes the tree of git revision rev of the repository at dir
// into a new directory under tmp and returns it.
func checkout(dir, rev, tmp string) (string, error) {
	dst := filepath.Join(tmp, "src-"+rev)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("sh", "-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", dir, rev, dst)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("git archive %s: %w\n%s", rev, err, b)
	}
	return dst, nil
}
