// Command history measures how well loadlens history's change points find
// steps in a series of runs and how often they cry wolf: on synthetic
// series with known steps, drifts and outliers at noise levels measured
// from real repeated runs, and on real series recorded from the demo shop
// with a regression and a fix applied (record.sh). It rewrites the
// measured section of docs/history.md.
//
//	go run ./bench/history -real bench/history/testdata/demo.json -docs docs/history.md
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
	realFile := flag.String("real", "", "series recorded by record.sh (JSON); its noise joins the synthetic noise levels")
	docs := flag.String("docs", "", "rewrite the measured section of this file (docs/history.md)")
	trials := flag.Int("trials", 1000, "synthetic series per step or drift cell")
	alarms := flag.Int("alarm-trials", 2000, "stable tests per false-alarm cell")
	seed := flag.Uint64("seed", 1, "the generator's seed: the same seed gives the same figures")
	exportDir := flag.String("export", "", "print the history records of this results folder as JSON (record.sh's last step)")
	flag.Parse()
	if *exportDir != "" {
		if err := export(*exportDir); err != nil {
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
	var rec *Recorded
	if realFile != "" {
		var err error
		if rec, err = readRecorded(realFile); err != nil {
			return err
		}
	}
	began := time.Now()
	md := measureAll(history.DefaultMethod, rec, n, rand.New(rand.NewPCG(seed, seed+1)))
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
