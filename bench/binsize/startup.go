package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

// timing is one command's start-up over many runs: wall time from exec to
// exit and CPU time (user + system), medians with their ranges, and the
// wall times run by run for pairing with another command's.
type timing struct {
	Wall, CPU [3]time.Duration // median, min, max
	walls     []time.Duration
}

// startups runs every argv once per round, interleaved, for runs rounds,
// so that a busy moment of a shared machine weighs on all of them alike.
func startups(argvs [][]string, runs int) ([]timing, error) {
	walls := make([][]time.Duration, len(argvs))
	cpus := make([][]time.Duration, len(argvs))
	for range runs {
		for i, argv := range argvs {
			cmd := exec.Command(argv[0], argv[1:]...)
			t0 := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("%v: %w\n%s", argv, err, out)
			}
			walls[i] = append(walls[i], time.Since(t0))
			cpus[i] = append(cpus[i], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
	}
	out := make([]timing, len(argvs))
	for i := range argvs {
		out[i] = timing{Wall: spread(walls[i]), CPU: spread(cpus[i]), walls: walls[i]}
	}
	return out, nil
}

// spread is the median, min and max of ds.
func spread(ds []time.Duration) [3]time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return [3]time.Duration{s[len(s)/2], s[0], s[len(s)-1]}
}

// pairedRatio is the median of a's wall time over b's, round by round.
func pairedRatio(a, b timing) float64 {
	rs := make([]float64, 0, len(a.walls))
	for i := range a.walls {
		rs = append(rs, float64(a.walls[i])/float64(b.walls[i]))
	}
	sort.Float64s(rs)
	return rs[len(rs)/2]
}

// initCost is what package initialisation costs at start-up, from
// GODEBUG=inittrace=1: the total clock time and allocated bytes, and the
// packages that take most.
type initCost struct {
	Clock time.Duration
	Bytes int64
	Top   []initLine
}

// initLine is one package's line of an init trace.
type initLine struct {
	Pkg   string
	Clock time.Duration
	Bytes int64
}

// inits runs bin version with the init trace on and reads it.
func inits(bin string) (initCost, error) {
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return initCost{}, fmt.Errorf("%s version: %w", bin, err)
	}
	return parseInitTrace(stderr.String()), nil
}

// parseInitTrace reads lines such as
// "init os @1.2 ms, 0.016 ms clock, 432 bytes, 9 allocs".
func parseInitTrace(s string) initCost {
	var c initCost
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		l := initLine{Pkg: f[1], Clock: time.Duration(ms * float64(time.Millisecond)), Bytes: b}
		c.Clock += l.Clock
		c.Bytes += l.Bytes
		c.Top = append(c.Top, l)
	}
	sort.Slice(c.Top, func(i, j int) bool { return c.Top[i].Clock > c.Top[j].Clock })
	if len(c.Top) > 5 {
		c.Top = c.Top[:5]
	}
	return c
}
