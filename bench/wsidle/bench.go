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
)

// target is the bound: memory per idle open session.
const target = 16 << 10

// openLimit bounds the wait for every session to open.
const openLimit = 3 * time.Minute

// options are the command line's choices for a measurement.
type options struct {
	ns            [2]int
	bin, baseline string // loadlens binaries; bin "" builds this tree
	k6, only      string
	rounds        int
}

// bench measures each client at both counts, round by round (the clients
// interleaved in each), and writes the table to w.
func bench(o options, w io.Writer) error {
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
	clients, err := clientsOf(o, dir, srv.URL, w)
	if err != nil {
		return err
	}
	results := make([][]result, len(clients))
	for round := range o.rounds {
		for i, c := range clients {
			r, err := measureBoth(c, srv, o.ns)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			results[i] = append(results[i], r)
			fmt.Fprintf(os.Stderr, "round %d, %s: %.0f B resident per session", round+1, c.name, r.resident)
			if c.inProcess {
				fmt.Fprintf(os.Stderr, ", %.0f B held", r.held)
			}
			fmt.Fprintln(os.Stderr)
		}
	}
	report(w, o, clients, results)
	return nil
}

// clientsOf lists the clients measured, building loadlens when no binary is given.
func clientsOf(o options, dir, url string, w io.Writer) ([]client, error) {
	bin := o.bin
	if bin == "" {
		bin = filepath.Join(dir, "loadlens")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/loadlens").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/loadlens (run from the module's root): %v\n%s", err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	run := func(bin string) func(n int) *exec.Cmd {
		return func(n int) *exec.Cmd { return loadlensCmd(bin, dir, url, n) }
	}
	all := []client{{name: "loadlens run", cmd: run(bin)}}
	if o.baseline != "" {
		all = append(all, client{name: "loadlens run, baseline " + filepath.Base(o.baseline), cmd: run(o.baseline), baseline: true})
	}
	all = append(all,
		client{name: "in-process (internal/protocol/ws)", inProcess: true, cmd: func(n int) *exec.Cmd {
			return exec.Command(self, "-client", strconv.Itoa(n), "-url", url)
		}},
		client{name: "in-process engine (internal/engine, the test loadlens run runs)", inProcess: true, cmd: func(n int) *exec.Cmd {
			return exec.Command(self, "-engine", strconv.Itoa(n), "-url", url)
		}})
	if path, err := exec.LookPath(o.k6); err == nil {
		all = append(all, client{name: "k6 (k6/experimental/websockets)", cmd: func(n int) *exec.Cmd {
			return exec.Command(path, "run", "--quiet", "--no-summary", "--no-usage-report", "-e", "TARGET="+url,
				"-e", "VUS="+strconv.Itoa(n), filepath.Join("bench", "k6", "ws-idle.js"))
		}})
	} else {
		fmt.Fprintf(w, "k6 left out: %q not found (bench/lib/install.sh installs it)\n\n", o.k6)
	}
	var out []client
	for _, c := range all {
		if strings.Contains(c.name, o.only) {
			out = append(out, c)
		}
	}
	return out, nil
}

// client is one of the clients measured.
type client struct {
	name      string
	inProcess bool // it reports its own heap, stacks and goroutines
	baseline  bool // the loadlens binary the first is compared with
	cmd       func(n int) *exec.Cmd
}

// reading is one client run's figures with every session open: its
// resident memory, the kernel's (system-wide), and what an in-process
// client reports of itself (totals over its sessions).
type reading struct {
	rss    int64
	kernel kernelMem
	inner  []int64 // dRSS, heap, stacks, goroutines, rss0, objects0, free0
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
	r := reading{rss: settledRSS(cmd.Process.Pid), kernel: readKernel()}
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
	for _, f := range strings.Fields(out.String()) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return r, fmt.Errorf("unreadable: %q", out.String())
		}
		r.inner = append(r.inner, v)
	}
	if len(r.inner) != 7 {
		return r, fmt.Errorf("unreadable: %q", out.String())
	}
	return r, nil
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
