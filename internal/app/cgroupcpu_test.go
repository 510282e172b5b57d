package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/series"
)

// cpuServerEnv makes the test binary a CPU-bound HTTP server
// (TestCgroupCPUServer): each request spins for 5 ms of CPU.
const cpuServerEnv = "LOADLENS_TEST_CPU_SERVER"

// TestCgroupCPUServer is the child process of TestCgroupQuotaThrottling,
// not a test of its own: it serves until its parent kills it.
func TestCgroupCPUServer(t *testing.T) {
	if os.Getenv(cpuServerEnv) != "1" {
		t.Skip("the child process of TestCgroupQuotaThrottling")
	}
	srv := &http.Server{Addr: "127.0.0.1:0", Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		x, end := 0, time.Now().Add(5*time.Millisecond)
		for time.Now().Before(end) {
			x++
		}
		fmt.Fprintln(w, x)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(ln.Addr().String())
	_ = srv.Serve(ln)
}

// cpuCgroup makes a CPU cgroup of cores (quota over a 100 ms period) under
// the v2 hierarchy or v1's cpu controller, whichever this kernel gives the
// cpu controller to, and removes it at the test's end. It skips only when
// the machine refuses one (not root, a read-only or absent hierarchy: a
// container), and under LOADLENS_CI=1 never for another reason; CI runs as
// root on a kernel that makes them (v1 cpu on the project's 2-core VMs).
func cpuCgroup(t *testing.T, cores float64) (procs string) {
	t.Helper()
	name := fmt.Sprintf("loadlens-test-%d-%d", os.Getpid(), int(cores*1000))
	var why []string
	refused := true // every attempt met a permission or read-only refusal: a machine that gives no cgroups
	for _, h := range []struct{ dir, file, value string }{
		{filepath.Join(proc.CgroupRoot, "cpu"), "cpu.cfs_quota_us", strconv.Itoa(int(cores * 100000))},
		{proc.CgroupRoot, "cpu.max", fmt.Sprintf("%d 100000", int(cores*100000))},
	} {
		dir := filepath.Join(h.dir, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			why = append(why, err.Error())
			refused = refused && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrNotExist))
			continue
		}
		t.Cleanup(func() { os.Remove(dir) })
		if err := os.WriteFile(filepath.Join(dir, h.file), []byte(h.value), 0o644); err != nil {
			why = append(why, err.Error())
			refused = false
			continue
		}
		return filepath.Join(dir, "cgroup.procs")
	}
	msg := "the kernel made no CPU cgroup: " + strings.Join(why, "; ")
	if os.Getenv("LOADLENS_CI") == "1" && !refused {
		t.Fatal(msg + " (LOADLENS_CI=1: a kernel that lets the test make a cgroup must make this one)")
	}
	t.Skip(msg)
	return ""
}

// startCPUServer runs TestCgroupCPUServer as a child process, in the
// cgroup whose cgroup.procs is procs ("" for none), and returns its URL.
func startCPUServer(t *testing.T, procs string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCgroupCPUServer$")
	cmd.Env = append(os.Environ(), cpuServerEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // before the cgroup's removal: cleanups run last first
	if procs != "" {
		if err := os.WriteFile(procs, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
			t.Fatalf("moving the server into its cgroup: %v", err)
		}
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the server's address: %v", err)
	}
	go io.Copy(io.Discard, out)
	return "http://" + strings.TrimSpace(line) + "/metrics"
}

// TestCgroupQuotaThrottling: three servers on loopback, a CPU-bound one
// under a quota of a tenth of a core (well under what a busy 2-core host leaves it) driven by 8 concurrent clients, a light
// one under the same quota, one under none. loadlens finds the first two
// quotas through /proc and the cgroup files, and from its own per-second
// readings names the first's throttling, quota in cores, and not the others:
// scraped targets by their names, hosts the requests go to unscraped by
// their host:port.
func TestCgroupQuotaThrottling(t *testing.T) {
	busy := startCPUServer(t, cpuCgroup(t, 0.1))
	light := startCPUServer(t, cpuCgroup(t, 0.5))
	free := startCPUServer(t, "")
	host := func(u string) string { return strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/metrics") }
	for _, tc := range []struct {
		name    string
		targets []plan.ObserveTarget
		origins []string
		busy    string // the busy server's target label
		light   string
	}{
		{"scraped", []plan.ObserveTarget{{Name: "busy", URL: busy}, {Name: "light", URL: light}, {Name: "free", URL: free}}, nil, "busy", "light"},
		{"unscraped", nil, []string{"http://" + host(busy), "http://" + host(light), "http://" + host(free)}, host(busy), host(light)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newCgroupMeter(tc.targets, tc.origins, proc.ProcRoot, proc.CgroupRoot)
			var watched []string
			for _, w := range m.watches {
				watched = append(watched, fmt.Sprintf("%s %.2f", w.labels[0].Value, w.limit.Cores))
			}
			if want := tc.busy + " 0.10, " + tc.light + " 0.50"; strings.Join(watched, ", ") != want {
				t.Fatalf("watched %q, want %q: the two servers under a quota", watched, want)
			}
			fs, read := throttleFindings(m, busy, light)
			if len(fs) != 1 || !strings.HasPrefix(fs[0], "cpu-throttled: "+tc.busy+" CPU throttled ") ||
				!strings.Contains(fs[0], " of periods at its cgroup quota of 0.1 (loadlens_cgroup_cpu_throttled_periods_total, target="+tc.busy+")") {
				t.Errorf("findings %q, want one: %s's throttling at its quota of 0.1 cores; series:\n%s", fs, tc.busy, read)
			}
		})
	}
}

// throttleFindings drives busy hard and light gently for 6 seconds while
// m samples each second, and returns the findings of what it read and,
// for a failure's message, the series.
func throttleFindings(m *cgroupMeter, busy, light string) (findings []string, read string) {
	ctx, stop := context.WithTimeout(context.Background(), 6*time.Second)
	defer stop()
	for range 8 {
		go drive(ctx, busy, 0)
	}
	go drive(ctx, light, 200*time.Millisecond)
	var set series.Set
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for sec := range 6 {
		<-tick.C
		set = append(set, m.sample(sec)...)
	}
	var got []string
	for _, f := range diagnose.Diagnose(diagnose.Input{Series: merged(set)}) {
		got = append(got, f.Kind+": "+diagnose.Join(f.Parts, f.Figures, func(f diagnose.Figure) string { return strconv.FormatFloat(f.Value, 'g', 3, 64) }))
	}
	return got, dump(set)
}

// drive sends requests to url one after another, pause apart, until ctx
// ends (at most 100,000).
func drive(ctx context.Context, url string, pause time.Duration) {
	for i := 0; i < 100_000 && ctx.Err() == nil; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		} else if errors.Is(err, syscall.ECONNREFUSED) {
			return
		}
		if pause > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(pause):
			}
		}
	}
}

// merged joins one-point series of the same key into one, as the run's
// observations keep them.
func merged(set series.Set) series.Set {
	byKey := map[string]*series.Series{}
	var out series.Set
	for _, s := range set {
		k := s.Key()
		if byKey[k] == nil {
			byKey[k] = &series.Series{Name: s.Name, Labels: s.Labels, Kind: s.Kind}
			out = append(out, byKey[k])
		}
		byKey[k].Points = append(byKey[k].Points, s.Points...)
	}
	return out
}

// dump is the series one a line, for a failure's message.
func dump(set series.Set) string {
	var b strings.Builder
	for _, s := range merged(set) {
		fmt.Fprintf(&b, "%s %v\n", s.Key(), s.Points)
	}
	return b.String()
}

// TestLoopbackPort reads the port a loopback target answers on, its
// scheme's default when the URL names none, and no other host's.
func TestLoopbackPort(t *testing.T) {
	for _, tc := range []struct {
		url  string
		port int
		ok   bool
	}{
		{"http://127.0.0.1:8080/metrics", 8080, true},
		{"http://localhost/actuator/prometheus", 80, true},
		{"https://[::1]/metrics", 443, true},
		{"http://10.0.0.5:8080/metrics", 0, false},
		{"http://db.internal:9187/metrics", 0, false},
	} {
		port, ok := loopbackPort(tc.url)
		if port != tc.port || ok != tc.ok {
			t.Errorf("%s: %d %v, want %d %v", tc.url, port, ok, tc.port, tc.ok)
		}
	}
}
