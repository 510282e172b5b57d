package scrape

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// TestRealNodeExporter scrapes a real node_exporter (.ci/apt-packages
// installs Debian's prometheus-node-exporter) on the real clock until two
// scrapes, a second apart, succeeded, and checks the node preset's view of
// this machine. The tests start the exporters on free 127.0.0.1 ports.
func TestRealNodeExporter(t *testing.T) {
	bin := need(t, "prometheus-node-exporter", "prometheus-node-exporter", "node_exporter")
	addr := closedAddrs(t, 1)[0]
	start(t, "Listening on", bin, "--web.listen-address="+addr)

	rec := newRecorder(func(r *recorder) bool { return countUp(r.up("node")) >= 2 })
	s, err := New([]Target{{Name: "node", URL: "http://" + addr + "/metrics", Preset: "node", Interval: time.Second}}, time.Now(), rec)
	if err != nil {
		t.Fatal(err)
	}
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	set := rec.lastGood("node")
	one := func(name string) float64 {
		t.Helper()
		ss := set.Find(name, "target", "node")
		if len(ss) != 1 {
			t.Fatalf("%d series %s, want 1; kept:\n%s", len(ss), name, strings.Join(lines(set), "\n"))
		}
		return ss[0].Points[0].Value
	}
	if up := one("up"); up != 1 {
		t.Fatalf("up = %v, want 1", up)
	}
	cpus := one("node_cpu_count")
	if cpus < 1 {
		t.Errorf("node_cpu_count = %v, want at least 1", cpus)
	}
	if total, avail := one("node_memory_MemTotal_bytes"), one("node_memory_MemAvailable_bytes"); total <= 0 || avail <= 0 || avail > total {
		t.Errorf("memory total %v available %v, want 0 < available ≤ total", total, avail)
	}
	// Every CPU spends each second in some mode: the modes' rates add up to
	// the CPU count, give or take the clock ticks of a one-second window.
	// Each CPU's idle and iowait are kept beside, one CPU's at most 1 a second.
	var busy float64
	var modes, perCPU int
	for _, m := range set.Find("node_cpu_seconds_total") {
		mode := m.Label("mode")
		switch {
		case m.Kind != series.Rate || mode == "":
			t.Errorf("%s (%s): want a rate per mode", m.Key(), m.Kind)
		case m.Label("cpu") == "":
			modes++
			busy += m.Points[0].Value
		case mode != "idle" && mode != "iowait":
			t.Errorf("%s: want only idle and iowait per CPU", m.Key())
		case m.Points[0].Value > 1.5:
			t.Errorf("%s = %v, want at most about 1 CPU-second per second", m.Key(), m.Points[0].Value)
		default:
			perCPU++
		}
	}
	if modes < 3 || busy < 0.5*cpus || busy > 1.5*cpus {
		t.Errorf("%d modes adding up to %.2f CPU-seconds per second, want about %v", modes, busy, cpus)
	}
	if perCPU != 2*int(cpus) {
		t.Errorf("%d per-CPU idle and iowait series, want 2 for each of %v CPUs", perCPU, cpus)
	}
	if d := one("scrape_duration_seconds"); d <= 0 || d > 1 {
		t.Errorf("scrape took %vs, want within the 900ms timeout", d)
	}
}

// TestRealRedisExporter scrapes a real redis_exporter in front of a real
// redis-server until two scrapes, a second apart, succeeded, and checks the
// redis preset's view.
func TestRealRedisExporter(t *testing.T) {
	redis := need(t, "redis-server", "redis-server")
	exporter := need(t, "prometheus-redis-exporter", "prometheus-redis-exporter", "redis_exporter")
	ports := closedAddrs(t, 2)
	redisAddr, addr := ports[0], ports[1]
	_, port, _ := strings.Cut(redisAddr, ":")
	start(t, "Ready to accept connections", redis, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	start(t, "Providing metrics at", exporter, "-redis.addr", "redis://"+redisAddr, "-web.listen-address", addr)

	rec := newRecorder(func(r *recorder) bool { return countUp(r.up("cache")) >= 2 })
	s, err := New([]Target{{Name: "cache", URL: "http://" + addr + "/metrics", Preset: "redis", Interval: time.Second,
		Labels: []series.Label{{Name: "role", Value: "cache"}}}}, time.Now(), rec)
	if err != nil {
		t.Fatal(err)
	}
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	set := rec.lastGood("cache")
	values := map[string]float64{}
	for _, s := range set {
		if s.Label("role") != "cache" || s.Label("target") != "cache" {
			t.Errorf("%s lacks the target's labels", s.Key())
		}
		values[s.Name] = s.Points[0].Value
	}
	checks := []struct {
		name string
		ok   func(v float64) bool
		want string
	}{
		{"up", func(v float64) bool { return v == 1 }, "1"},
		{"redis_up", func(v float64) bool { return v == 1 }, "1"},
		{"redis_connected_clients", func(v float64) bool { return v >= 1 }, "at least the exporter"},
		{"redis_memory_used_bytes", func(v float64) bool { return v > 0 }, "above 0"},
		{"redis_commands_processed_total", func(v float64) bool { return v > 0 }, "above 0/s: the exporter's own commands"},
		{"redis_evicted_keys_total", func(v float64) bool { return v == 0 }, "0/s"},
		{"redis_keyspace_hits_total", func(v float64) bool { return v >= 0 }, "a rate"},
		{"redis_keyspace_misses_total", func(v float64) bool { return v >= 0 }, "a rate"},
	}
	for _, c := range checks {
		if v, kept := values[c.name]; !kept || !c.ok(v) {
			t.Errorf("%s = %v (kept %v), want %s; kept:\n%s", c.name, v, kept, c.want, strings.Join(lines(set), "\n"))
		}
	}
}

// lastGood returns a target's last successful scrape. Called under r.mu.
func (r *recorder) lastGood(target string) series.Set {
	sets := r.scraped[target]
	for i := len(sets) - 1; i >= 0; i-- {
		if up := sets[i].Find("up"); len(up) == 1 && up[0].Points[0].Value == 1 {
			return sets[i]
		}
	}
	return nil
}

// countUp counts the good scrapes among up values. An exporter may log
// that it listens a moment before it does, so the first scrape can fail.
func countUp(ups []float64) int {
	n := 0
	for _, v := range ups {
		if v == 1 {
			n++
		}
	}
	return n
}

// need returns the path of the first of names installed, skipping the test
// when none is, or failing it under LOADLENS_CI=1 (.ci/apt-packages lists pkg).
func need(t *testing.T, pkg string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("LOADLENS_CI") == "1" {
		t.Fatalf("%s is not installed; .ci/apt-packages lists %s", names[0], pkg)
	}
	t.Skipf("%s is not installed (apt-get install %s)", names[0], pkg)
	return ""
}

// start starts a server and returns once its output (stdout or stderr)
// has a line containing ready; the test's cleanup stops it.
func start(t *testing.T, ready, bin string, args ...string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	_ = w.Close() // the child holds its own copy
	if err != nil {
		_ = r.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = r.Close()
	})
	listening := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(r)
		found := false
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), ready) {
				found = true
				listening <- true
			}
		}
		if !found {
			listening <- false
		}
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case ok := <-listening:
		if !ok {
			t.Fatalf("%s exited before logging %q", bin, ready)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("%s did not log %q within 15s", bin, ready)
	}
}
