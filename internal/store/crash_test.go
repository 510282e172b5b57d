package store

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKilledWriterKeepsEverySecond kills a writing process with SIGKILL and
// reads what it left.
func TestKilledWriterKeepsEverySecond(t *testing.T) {
	if os.Getenv("LOADLENS_STORE_HELPER") != "" {
		t.Skip("in the helper process")
	}
	path := filepath.Join(t.TempDir(), "run.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
	cmd.Env = append(os.Environ(), "LOADLENS_STORE_HELPER="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe() // held open so the helper blocks until killed
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stdin.Close() }()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "written") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper said %q (%v)", line, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	r := open(t, path)
	run, err := r.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Series) != 6 || run.Endpoints[0].Requests != 21 {
		t.Errorf("read %d seconds and %d requests, want 6 and 21", len(run.Series), run.Endpoints[0].Requests)
	}
}

// TestHelperWriter is the process TestKilledWriterKeepsEverySecond kills:
// it writes 6 seconds, says so, and waits.
func TestHelperWriter(t *testing.T) {
	path := os.Getenv("LOADLENS_STORE_HELPER")
	if path == "" {
		t.Skip("only run as a helper process")
	}
	w, err := Create(path, testMeta())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snapshots(testMeta().Layout, 6) {
		if err := w.WriteSecond(s); err != nil {
			t.Fatal(err)
		}
	}
	os.Stdout.WriteString("written\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until killed
}
