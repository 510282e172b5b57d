// Command history measures how well loadlens history's change points find
// steps in a series of runs and how often they cry wolf: on synthetic
// series with known steps, drifts and outliers at noise levels measured
// from real repeated runs, and on real series recorded from the demo shop
// with a regression and a fix applied (record.sh) and from a server whose
// service time steps by a known amount (record-steps.sh). It rewrites the
// measured section of docs/history.md.
//
//	go run ./bench/history -real bench/history/testdata/demo.json,bench/history/testdata/steps.json -docs docs/history.md
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/history"
)

func main() {
	realFile := flag.String("real", "", "series recorded by record.sh or record-steps.sh (JSON), comma-separated; the first one's noise joins the synthetic noise levels")
	docs := flag.String("docs", "", "rewrite the measured section of this file (docs/history.md)")
	trials := flag.Int("trials", 1000, "synthetic series per step or drift cell")
	alarms := flag.Int("alarm-trials", 2000, "stable tests per false-alarm cell")
	seed := flag.Uint64("seed", 1, "the generator's seed: the same seed gives the same figures")
	exportDir := flag.String("export", "", "print the history records of this results folder as JSON (record.sh's last step)")
	serverDir := flag.String("server", "", "with -export: the step server's timing of each run, DIR/1.json, DIR/2.json… in the runs' order (record-steps.sh)")
	title := flag.String("title", "the demo shop", "with -export: what the recording ran against, for its table's heading")
	script := flag.String("script", "bench/history/record.sh", "with -export: the script that recorded it, for its table's heading")
	commit := flag.String("commit", "", "with -export: loadlens's commit that made the runs, for its table's heading")
	steps := flag.String("serve-steps", "", "serve the step server on this loopback address (record-steps.sh)")
	sleep := flag.Duration("sleep", 50*time.Millisecond, "with -serve-steps: a request's sleep at factor 1")
	work := flag.Duration("work", 0, "with -serve-steps: a request's CPU work at factor 1")
	flag.Parse()
	if *steps != "" {
		fmt.Fprintln(os.Stderr, "history bench:", serveSteps(*steps, *sleep, *work))
		os.Exit(1)
	}
	if *exportDir != "" {
		if err := export(*exportDir, *serverDir, *title, *script, *commit); err != nil {
			fmt.Fprintln(os.Stderr, "history bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*realFile, *docs, Sizes{Steps: *trials, Alarms: *alarms, Gated: max(*trials/5, 20)}, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "history bench:", err)
		os.Exit(1)
	}
}

func run(realFile, docs string, n Sizes, seed uint64) error {
	var recs []*Recorded
	for path := range strings.SplitSeq(realFile, ",") {
		if path == "" {
			continue
		}
		rec, err := readRecorded(path)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
	}
	began := time.Now()
	md := measureAll(history.DefaultMethod, recs, n, rand.New(rand.NewPCG(seed, seed+1)))
	md += fmt.Sprintf("\nMeasured by `go run ./bench/history` (seed %d; %d series per step or drift cell, %d stable tests per false-alarm cell, the gate after each run of %d of them) in %s on %s.\n",
		seed, n.Steps, n.Alarms, n.Gated, time.Since(began).Round(time.Second), time.Now().UTC().Format("2006-01-02"))
	if docs == "" {
		fmt.Print(md)
		return nil
	}
	return rewrite(docs, md)
}

// The markers around the section the benchmark writes.
const (
	beginMark = "<!-- begin: written by go run ./bench/history; do not edit -->"
	endMark   = "<!-- end: written by go run ./bench/history -->"
)

// rewrite replaces the text between the markers of path with md.
func rewrite(path, md string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, beginMark), strings.Index(s, endMark)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q … %q section to rewrite", path, beginMark, endMark)
	}
	s = s[:i+len(beginMark)] + "\n" + md + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
