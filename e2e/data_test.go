package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestLargeDataFileRunsInBoundedMemory: validate and run a test whose CSV
// file is 24 MiB, then 120 MiB: each takes about the same memory (the
// rows are streamed from the file, not held), and every iteration gets a
// whole row of it. Before, a 1 GB CSV took 3.1 GB and 16 to 21 s to
// validate, and the run then dropped iterations.
func TestLargeDataFileRunsInBoundedMemory(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path+" "+r.Header.Get("X-Password")]++
		mu.Unlock()
	}))
	defer srv.Close()
	row := regexp.MustCompile(`^/u/user-\d{9} pass, word \d+$`)
	peaks := map[string]int64{}
	for _, size := range []int64{24 << 20, 120 << 20} {
		dir := t.TempDir()
		writeUsers(t, filepath.Join(dir, "users.csv"), size)
		test := fmt.Sprintf("name: big-data\nbase_url: %s\nscenarios:\n  s:\n    iterations: 400\n    vus: 4\n"+
			"    data: {file: users.csv, mode: random}\n    flow:\n      - get: /u/{{ user }}\n        headers: {X-Password: '{{ password }}'}\n", srv.URL)
		os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
		for _, cmd := range [][]string{{"validate", "t.yaml"}, {"run", "t.yaml", "--quiet"}} {
			code, peak, out := loadlensPeak(t, dir, cmd...)
			if code != 0 {
				t.Fatalf("%s with %d MiB of data: exit %d\n%s", cmd[0], size>>20, code, out)
			}
			peaks[fmt.Sprint(cmd[0], size>>20)] = peak
			t.Logf("%s with %d MiB of data: %d MiB at the peak", cmd[0], size>>20, peak>>20)
		}
		os.Remove(filepath.Join(dir, "users.csv"))
	}
	for _, cmd := range []string{"validate", "run"} {
		small, large := peaks[cmd+"24"], peaks[cmd+"120"]
		if large > small+32<<20 {
			t.Errorf("%s: %d MiB at the peak with 120 MiB of data, %d MiB with 24 MiB: memory grows with the file", cmd, large>>20, small>>20)
		}
	}
	n := 0
	for req, count := range seen {
		n += count
		if !row.MatchString(req) {
			t.Errorf("a request carried %q, not a whole row", req)
		}
	}
	if n != 800 {
		t.Errorf("the target saw %d requests, want 2 × 400 iterations", n)
	}
}

// writeUsers writes a CSV of user and password rows of about size bytes.
func writeUsers(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("user,password\n")
	for n, i := int64(0), 0; n < size; i++ {
		k, _ := fmt.Fprintf(w, "user-%09d,\"pass, word %d\"\n", i, i)
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// loadlensPeak runs the binary in dir and returns its exit code, the most
// resident memory it held (getrusage's maxrss) and its output.
func loadlensPeak(t *testing.T, dir string, args ...string) (int, int64, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running loadlens %v: %v", args, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no resource usage of a process here")
	}
	return code, ru.Maxrss << 10, out.String() // Linux gives kB
}
