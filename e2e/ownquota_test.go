package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ownQuotaCgroup makes a cgroup v1 cpu group (v2 where the kernel gives
// it the cpu controller) of cores, and returns its cgroup.procs; it skips,
// saying why, where this machine makes none (not root, a read-only
// hierarchy: most containers).
func ownQuotaCgroup(t *testing.T, cores float64) string {
	t.Helper()
	name := fmt.Sprintf("loadlens-e2e-ownquota-%d", os.Getpid())
	var why []string
	for _, h := range []struct{ dir, file, value string }{
		{"/sys/fs/cgroup/cpu", "cpu.cfs_quota_us", fmt.Sprint(int(cores * 100000))},
		{"/sys/fs/cgroup", "cpu.max", fmt.Sprintf("%d 100000", int(cores*100000))},
	} {
		dir := filepath.Join(h.dir, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			why = append(why, err.Error())
			continue
		}
		t.Cleanup(func() { os.Remove(dir) }) // after the run's process is gone: cleanups run last first
		if err := os.WriteFile(filepath.Join(dir, h.file), []byte(h.value), 0o644); err != nil {
			why = append(why, err.Error())
			continue
		}
		return filepath.Join(dir, "cgroup.procs")
	}
	t.Skip("no writable CPU cgroup here: " + strings.Join(why, "; "))
	return ""
}

// TestOwnQuotaIsTheGeneratorsLimit runs the real binary inside a cgroup of
// 0.3 cores, as a pod with a CPU limit, against a fast in-process target
// that 8 closed-model VUs drive as hard as they can: the kernel throttles
// loadlens, and the generator-bound finding names its own container's
// quota, not the target.
func TestOwnQuotaIsTheGeneratorsLimit(t *testing.T) {
	procs := ownQuotaCgroup(t, 0.3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	path := writeTest(t, dir, "t.yaml", "base_url: "+srv.URL+`
scenarios:
  hammer:
    vus: 8
    duration: 6s
    flow:
      - get: /
`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The shell moves itself into the cgroup, then becomes loadlens: the whole run is inside it.
	cmd := exec.CommandContext(ctx, "sh", "-c", `p=$1; shift; echo $$ > "$p" && exec "$@"`, "sh", procs,
		binary, "run", path, "--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 99) {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var s struct {
		Loadlens struct {
			Findings []struct {
				Kind  string `json:"kind"`
				Title string `json:"title"`
			} `json:"findings"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var titles []string
	found := false
	for _, f := range s.Loadlens.Findings {
		titles = append(titles, f.Kind+": "+f.Title)
		found = found || f.Kind == "generator-bound" && strings.Contains(f.Title, "loadlens's own container was throttled in ") &&
			strings.Contains(f.Title, " of periods at its quota of 0.3 cores")
		if f.Kind == "cpu-throttled" {
			t.Errorf("loadlens's own cgroup read as a target's: %s", f.Title)
		}
	}
	t.Logf("findings:\n%s", strings.Join(titles, "\n"))
	if !found {
		t.Errorf("no generator-bound finding naming loadlens's own 0.3-core quota; findings:\n%s\n%s", strings.Join(titles, "\n"), out)
	}
}
