// Command vumem measures what an idle closed-model VU costs the loadlens
// binary (issue 22: ≤ 16 KiB at 10,000 VUs): it serves a fixed reply on
// 127.0.0.1, runs `loadlens run` with N VUs that each send one GET and then
// think, samples the run's resident memory every 100 ms, and prints per VU
// the peak RSS (what bench/RESULTS.md §4 reports), the median RSS of the
// steady seconds, and the marginal cost over a run of one VU, and the
// run's CPU (user and system) per request the server answered, so that a
// change that saves memory shows what it costs per iteration. With -delay
// the server is a slow target, and the start's shape shows whether the
// generator held VUs back: how long until every VU had sent its first
// request, and the requests of the first 2 (delay + think) over what the
// closed model sends then. With
// -baseline the two binaries run interleaved, round by round, and each
// figure gets its paired ratio.
//
//	go build -o /tmp/ll ./cmd/loadlens && go run ./bench/vumem -loadlens /tmp/ll
//	go run ./bench/vumem -loadlens /tmp/ll -baseline /tmp/ll-old -rounds 3
//	go run ./bench/vumem -loadlens /tmp/ll -delay 1s -rounds 1
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	var o options
	flag.StringVar(&o.binary, "loadlens", "", "the loadlens binary to measure (required)")
	flag.StringVar(&o.baseline, "baseline", "", "a second binary, measured interleaved with the first")
	flag.IntVar(&o.vus, "vus", 10000, "VUs")
	flag.DurationVar(&o.think, "think", time.Second, "think time after each request")
	flag.DurationVar(&o.delay, "delay", 0, "how long the server takes to answer each request (a slow target)")
	flag.DurationVar(&o.duration, "duration", 15*time.Second, "the run's duration")
	flag.IntVar(&o.rounds, "rounds", 3, "rounds (each runs every binary once at N VUs and once at 1)")
	flag.Parse()
	if o.binary == "" || o.vus < 2 || o.rounds < 1 || o.think <= 0 || o.delay < 0 || o.duration < 3*(o.think+o.delay) {
		fmt.Fprintln(os.Stderr, "vumem: -loadlens is required; -vus ≥ 2, -rounds ≥ 1, -delay ≥ 0, -duration ≥ 3 (think + delay)")
		os.Exit(2)
	}
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "vumem:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	binary, baseline string
	vus, rounds      int
	think, duration  time.Duration
	delay            time.Duration // the server's time per request
}
