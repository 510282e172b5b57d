package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hangingServer accepts, reads each request's head, counts it and never
// answers; it returns its address and the count.
func hangingServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := bufio.NewReader(c)
				for { // one head per request; the client closes the connection when its timeout fires
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if line == "\r\n" {
						n.Add(1)
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String(), &n
}

// TestAHangingTargetShowsAsTimeoutsNotDrops is trial defect B: 10/s with a
// 500ms timeout against a target that never answers. The default max_vus
// must hold every iteration (the 30 the schedule has, each seen by the
// target), and the run must never blame the generator.
func TestAHangingTargetShowsAsTimeoutsNotDrops(t *testing.T) {
	addr, seen := hangingServer(t)
	dir := t.TempDir()
	r := loadlens(t, dir, "run", "http://"+addr+"/x", "--rate", "10", "--duration", "3s", "--timeout", "500ms",
		"--no-dashboard", "--quiet", "--results", "results", "--summary-json", "s.json")
	if r.code == 2 {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Metrics map[string]struct{ Count float64 } `json:"metrics"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	dropped, reqs := s.Metrics["dropped_iterations"].Count, s.Metrics["http_reqs"].Count
	if dropped != 0 || reqs != 30 || seen.Load() != 30 {
		t.Errorf("%v dropped, %v requests, %d seen by the target; want 0, 30 and 30 (the schedule's arrivals)", dropped, reqs, seen.Load())
	}
	flat := strings.Join(strings.Fields(r.stdout), " ")
	if strings.Contains(flat, "The load generator is the bottleneck") || !strings.Contains(flat, "Every request failed") {
		t.Errorf("the run blames the generator, or does not name the target's timeouts:\n%s", r.stdout)
	}
}

// TestAGeneratorStarvedByAHogIsNamed is trial defect A: loadlens shares
// its one CPU with two processes that never block (`taskset -c 1`), so it
// waits for a CPU about twice as long as it runs, against a target that
// answers at once. The closed model has no schedule to be late on, and
// the run used to say "no bottleneck found"; a finding must name the wait.
func TestAGeneratorStarvedByAHogIsNamed(t *testing.T) {
	taskset, err := exec.LookPath("taskset")
	if err != nil || runtime.NumCPU() < 2 {
		if os.Getenv("LOADLENS_CI") != "" {
			t.Fatalf("taskset (util-linux) and 2 CPUs are needed: %v, %d CPUs", err, runtime.NumCPU())
		}
		t.Skipf("needs taskset and 2 CPUs: %v, %d CPUs", err, runtime.NumCPU())
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	for range 2 {
		hog := exec.Command(taskset, "-c", "1", "sh", "-c", "while :; do :; done")
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { hog.Process.Kill(); hog.Wait() })
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, taskset, "-c", "1", binary, "run", srv.URL+"/", "--vus", "10", "--duration", "5s", "--no-dashboard", "--quiet", "--results", "results")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(string(out)), " ")
	if strings.Contains(flat, "no bottleneck found") || !strings.Contains(flat, "waited for a CPU") {
		t.Errorf("the starved run does not name loadlens's wait for a CPU:\n%s", out)
	}
}
