package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// testFile is the run's test: N VUs, each one GET then a think time, as
// bench/loadlens/idle.yaml.
const testFile = `name: vumem
base_url: "{{ env.TARGET }}"
timeout: 10s
scenarios:
  idle:
    model: vus
    vus: %d
    duration: %s
    graceful_stop: 5s
    flow:
      - get: /
      - think: %s
`

// memory is one run's resident memory, in bytes, and its CPU.
type memory struct {
	peak   float64 // VmHWM: the largest RSS of the run
	steady float64 // median VmRSS of the samples in the run's second half
	cpu    float64 // the run's user and system CPU, in seconds
	reqs   int64   // the requests the server answered during the run
}

// measure runs binary with vus VUs against target and samples its memory.
func measure(binary, target, dir string, vus int, o options) (memory, error) {
	test := filepath.Join(dir, "test.yaml")
	if err := os.WriteFile(test, fmt.Appendf(nil, testFile, vus, o.duration, o.think), 0o600); err != nil {
		return memory{}, err
	}
	cmd := exec.Command(binary, "run", test, "-e", "TARGET="+target, "--quiet", "--no-dashboard",
		"--results", filepath.Join(dir, "results"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return memory{}, err
	}
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	reqs0 := answered.Load()
	half := time.Now().Add(o.duration / 2)
	var m memory
	var steady []float64
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return memory{}, fmt.Errorf("%s: %w: %s", binary, err, lastLine(stderr.String()))
			}
			if len(steady) == 0 {
				return memory{}, fmt.Errorf("%s: no sample in the run's second half", binary)
			}
			slices.Sort(steady)
			m.steady = steady[len(steady)/2]
			m.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			m.reqs = answered.Load() - reqs0
			return m, nil
		case now := <-tick.C:
			rss, hwm, ok := readStatus(status)
			if !ok {
				continue // exiting
			}
			m.peak = max(m.peak, hwm)
			if now.After(half) && now.Before(half.Add(o.duration/2-o.think)) {
				steady = append(steady, rss)
			}
		}
	}
}

// readStatus reads VmRSS and VmHWM, in bytes, from a /proc/PID/status file.
func readStatus(path string) (rss, hwm float64, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	return parseStatus(b)
}

// parseStatus reads VmRSS and VmHWM from the text of /proc/PID/status.
func parseStatus(b []byte) (rss, hwm float64, ok bool) {
	var got int
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, found := strings.Cut(sc.Text(), ":")
		if !found || name != "VmRSS" && name != "VmHWM" {
			continue
		}
		f := strings.Fields(value)
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, false
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return 0, 0, false
		}
		if name == "VmRSS" {
			rss = kb * 1024
		} else {
			hwm = kb * 1024
		}
		got++
	}
	return rss, hwm, got == 2
}

// lastLine returns s's last non-empty line.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}
