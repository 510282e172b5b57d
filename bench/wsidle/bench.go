package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// target is the bound: memory per idle open session.
const target = 16 << 10

// openLimit bounds the wait for every session to open.
const openLimit = 3 * time.Minute

// bench measures each client at both counts and writes the table to w.
func bench(ns [2]int, bin, k6, only string, w io.Writer) error {
	srv, err := startServer()
	if err != nil {
		return err
	}
	defer srv.close()
	dir, err := os.MkdirTemp("", "wsidle")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		bin = filepath.Join(dir, "loadlens")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/loadlens").CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/loadlens (run from the module's root): %v\n%s", err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	clients := []client{
		{"loadlens run", false, func(n int) *exec.Cmd { return loadlensCmd(bin, dir, srv.URL, n) }},
		{"in-process (internal/protocol/ws)", true, func(n int) *exec.Cmd {
			return exec.Command(self, "-client", strconv.Itoa(n), "-url", srv.URL)
		}},
		{"in-process engine (internal/engine, the test loadlens run runs)", true, func(n int) *exec.Cmd {
			return exec.Command(self, "-engine", strconv.Itoa(n), "-url", srv.URL)
		}},
	}
	if path, err := exec.LookPath(k6); err == nil {
		clients = append(clients, client{"k6 (k6/experimental/websockets)", false, func(n int) *exec.Cmd {
			return exec.Command(path, "run", "--quiet", "--no-summary", "--no-usage-report", "-e", "TARGET="+srv.URL,
				"-e", "VUS="+strconv.Itoa(n), filepath.Join("bench", "k6", "ws-idle.js"))
		}})
	} else {
		fmt.Fprintf(w, "k6 left out: %q not found (bench/lib/install.sh installs it)\n\n", k6)
	}
	fmt.Fprintf(w, "| client | RSS at %s sessions | RSS at %s | per session | of 16 KiB | in-process, per session |\n| --- | --- | --- | --- | --- | --- |\n",
		units.Count(int64(ns[0])), units.Count(int64(ns[1])))
	for _, c := range clients {
		if !strings.Contains(c.name, only) {
			continue
		}
		var rss [2]int64
		var inner string
		for i, n := range ns {
			m, err := measure(c.cmd(n), srv, n, c.inProcess)
			if err != nil {
				return fmt.Errorf("%s, %d sessions: %w", c.name, n, err)
			}
			rss[i], inner = m.rss, m.inner
		}
		per := (rss[1] - rss[0]) / int64(ns[1]-ns[0])
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.2f | %s |\n", c.name, units.Bytes(rss[0]), units.Bytes(rss[1]),
			units.Bytes(per), float64(per)/target, inner)
	}
	return nil
}

// client is one of the clients measured.
type client struct {
	name      string
	inProcess bool // it reports its own heap, stacks and goroutines
	cmd       func(n int) *exec.Cmd
}

// reading is one client run's figures: its resident memory with every
// session open, and what an in-process client reports of itself.
type reading struct {
	rss   int64
	inner string
}

// measure starts cmd, waits for its n sessions to open, reads its memory,
// and stops it.
func measure(cmd *exec.Cmd, srv *server, n int, inProc bool) (reading, error) {
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return reading{}, err
	}
	if err := cmd.Start(); err != nil {
		return reading{}, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer srv.waitClosed(time.Minute)
	if err := srv.waitOpen(n, openLimit, exited); err != nil {
		_ = cmd.Process.Kill()
		return reading{}, fmt.Errorf("%w\n%s", err, tail(errOut.String()))
	}
	r := reading{rss: settledRSS(cmd.Process.Pid)}
	if !inProc {
		_ = cmd.Process.Kill()
		<-exited
		if path := os.Getenv("WSIDLE_CHILDLOG"); path != "" { // e.g. with GODEBUG=gctrace=1: the child's heap and stacks
			_ = os.WriteFile(fmt.Sprintf("%s.%d", path, n), errOut.Bytes(), 0o644)
		}
		return r, nil
	}
	if _, err := io.WriteString(stdin, "measure\n"); err != nil {
		_ = cmd.Process.Kill()
		<-exited
		return r, err
	}
	if err := <-exited; err != nil { // it prints, closes its sessions and exits
		return r, fmt.Errorf("%w\n%s", err, tail(errOut.String()))
	}
	return inProcess(out.String(), n, r.rss), nil
}

// inProcess reads what the in-process client printed once measured.
func inProcess(out string, n int, rss int64) reading {
	var dRSS, heap, stacks, gs int64
	if _, err := fmt.Sscan(out, &dRSS, &heap, &stacks, &gs); err != nil {
		return reading{rss: rss, inner: "unreadable: " + out}
	}
	per := func(v int64) string { return units.Bytes(v / int64(n)) }
	return reading{rss: rss, inner: fmt.Sprintf("%s heap, %s stacks, %.1f goroutines; %s resident after debug.FreeOSMemory",
		per(heap), per(stacks), float64(gs)/float64(n), per(dRSS))}
}

// settledRSS samples a process's resident memory until it stops growing
// (three samples 500 ms apart within 1 %), for at most 10 s; with -settle,
// it reads it once, that long after.
func settledRSS(pid int) int64 {
	if settle > 0 {
		wait := time.NewTimer(settle)
		defer wait.Stop()
		<-wait.C
		return residentOf(pid)
	}
	var last int64
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	steady := 0
	for range 20 {
		<-tick.C
		now := residentOf(pid)
		if last > 0 && now <= last+last/100 {
			steady++
		} else {
			steady = 0
		}
		last = max(last, now)
		if steady == 2 {
			break
		}
	}
	return last
}

// residentOf reads a process's resident set size from /proc.
func residentOf(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// loadlensCmd runs a test of n VUs each holding one idle ws: session.
func loadlensCmd(bin, dir, url string, n int) *exec.Cmd {
	path := filepath.Join(dir, fmt.Sprintf("idle-%d.yaml", n))
	_ = os.WriteFile(path, []byte(idleTest(n, url)), 0o644)
	return exec.Command(bin, "run", path, "--quiet", "--no-dashboard", "--results", filepath.Join(dir, "results"))
}

// idleTest is a test of n VUs each holding one idle ws: session.
func idleTest(n int, url string) string {
	return fmt.Sprintf(`name: ws-idle
scenarios:
  idle:
    vus: %d
    duration: 10m
    flow:
      - ws: %s
        duration: 10m
        timeout: 10m
`, n, url)
}

// tail is the last lines of a client's output, for errors.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-5):], "\n")
}
