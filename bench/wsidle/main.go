// Command wsidle measures the memory of idle open WebSocket sessions: N
// sessions connect to a server on 127.0.0.1 that says nothing, and the
// client's resident memory (and, run in-process, its Go heap, stacks and
// goroutines, before and after a collection) is read once every session is
// open. Per session is the difference between two session counts over the
// difference of counts, so the process's fixed cost drops out. The clients,
// one after the other in each round (-rounds, medians over them):
//
//   - loadlens: the product, `loadlens run` of a ws: step held open by N
//     VUs, and -baseline's binary beside it (a paired ratio);
//   - in-process: internal/protocol/ws's sessions, one goroutine each as the
//     engine runs a VU, with runtime.MemStats (where the memory goes);
//   - in-process engine: internal/engine running the same test;
//   - k6: `k6 run` of bench/k6/ws-idle.js (k6/experimental/websockets),
//     when k6 is on $PATH (bench/lib/install.sh installs it).
//
// The kernel's socket memory (TCP buffers, slab) is read system-wide.
//
// go run ./bench/wsidle -n 1000,10000
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// settle is -settle.
var settle time.Duration

func main() {
	counts := flag.String("n", "1000,10000", "two session counts, the smaller first")
	client := flag.Int("client", 0, "internal: run N in-process sessions against -url and report")
	eng := flag.Int("engine", 0, "internal: run the idle test of N VUs in internal/engine against -url and report")
	url := flag.String("url", "", "internal: the server's ws:// URL for -client")
	bin := flag.String("loadlens", "", "the loadlens binary (default: built from this tree)")
	k6 := flag.String("k6", "k6", "the k6 binary; none found: k6 is left out")
	flag.DurationVar(&settle, "settle", 0, "read a client's memory this long after its sessions opened (0: once it stops growing), so that the runtime has returned what the handshakes freed")
	only := flag.String("only", "", "measure only the clients whose names contain this (loadlens, in-process, k6)")
	baseline := flag.String("baseline", "", "another loadlens binary, measured beside the first in each round (paired ratio)")
	rounds := flag.Int("rounds", 5, "rounds, the clients interleaved in each; the table shows medians")
	flag.Parse()
	if *client > 0 || *eng > 0 {
		run := func() error { return runClient(*client, *url, os.Stdout) }
		if *eng > 0 {
			run = func() error { return runEngine(*eng, *url, os.Stdout) }
		}
		if err := run(); err != nil {
			fmt.Fprintln(os.Stderr, "wsidle client:", err)
			os.Exit(1)
		}
		return
	}
	ns, err := parseCounts(*counts)
	if err == nil && *rounds < 1 {
		err = fmt.Errorf("-rounds %d: at least 1", *rounds)
	}
	if err == nil {
		err = bench(options{ns: ns, bin: *bin, baseline: *baseline, k6: *k6, only: *only, rounds: *rounds}, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wsidle:", err)
		os.Exit(1)
	}
}

// parseCounts reads "1000,10000".
func parseCounts(s string) ([2]int, error) {
	var out [2]int
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return out, fmt.Errorf("-n %q: two counts, like 1000,10000", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return out, fmt.Errorf("-n %q: %q is not a count", s, p)
		}
		out[i] = n
	}
	if out[0] >= out[1] {
		return out, fmt.Errorf("-n %q: the smaller count first", s)
	}
	return out, nil
}
