// Command binsize measures the product binary: its size as `go build` and
// the image build make it, the modules that take the most of it, and its
// start-up (`loadlens version`, median of many runs, with the init trace),
// beside k6 and oha when they are installed. It writes a Markdown page
// (issue 23, "A lean product binary").
//
//	go run ./bench/binsize -write bench/SIZE.md                # this tree
//	go run ./bench/binsize -baseline 645e325 -write bench/SIZE.md  # and an older commit beside it
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	var o options
	flag.StringVar(&o.baseline, "baseline", "", "a git revision to measure beside this tree")
	flag.StringVar(&o.tags, "tags", "", "build tags for both builds")
	flag.IntVar(&o.runs, "runs", 41, "start-up runs per binary (the median is kept)")
	flag.IntVar(&o.top, "top", 15, "modules listed")
	flag.StringVar(&o.write, "write", "", "write the page to this file instead of standard output")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "binsize:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	baseline, tags, write string
	runs, top             int
}

// run measures this tree (and the baseline) and writes the page.
func run(o options) error {
	tmp, err := os.MkdirTemp("", "binsize")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var ms []measured
	if o.baseline != "" {
		src, err := checkout(".", o.baseline, tmp)
		if err != nil {
			return err
		}
		m, err := measure(src, "baseline "+o.baseline, filepath.Join(tmp, "base"), o)
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	m, err := measure(".", "this tree", filepath.Join(tmp, "now"), o)
	if err != nil {
		return err
	}
	ms = append(ms, m)
	ps := peers()
	if err := timeAll(ms, ps, o.runs); err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	if o.write != "" {
		f, err := os.Create(o.write)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	return page(w, ms, ps, o)
}

// measured is what was measured of one tree.
type measured struct {
	Name    string
	Bin     string  // the plain build
	Sizes   []int64 // per flavour
	Modules []share // of the plain build
	Code    int64   // the bytes modules sums
	Time    timing
	Init    initCost
}

// measure builds the tree at src both ways into dir and measures all but
// its start-up.
func measure(src, name, dir string, o options) (measured, error) {
	m := measured{Name: name, Bin: filepath.Join(dir, "loadlens-0")}
	for i, f := range flavours {
		bin := filepath.Join(dir, fmt.Sprintf("loadlens-%d", i))
		if err := build(src, "./cmd/loadlens", bin, f, o.tags); err != nil {
			return m, err
		}
		m.Sizes = append(m.Sizes, fileSize(bin))
	}
	var err error
	m.Modules, m.Code, err = modulesOf(m.Bin)
	return m, err
}

// timeAll measures the start-up of every tree's plain build and of the
// peers, interleaved, then the trees' init traces, interleaved too.
func timeAll(ms []measured, ps []peer, runs int) error {
	var argvs [][]string
	for _, m := range ms {
		argvs = append(argvs, []string{m.Bin, "version"})
	}
	for _, p := range ps {
		argvs = append(argvs, p.Argv)
	}
	ts, err := startups(argvs, runs)
	if err != nil {
		return err
	}
	for i := range ms {
		ms[i].Time = ts[i]
	}
	for i := range ps {
		ps[i].Time = ts[len(ms)+i]
	}
	for round := range 25 {
		for i := range ms {
			c, err := inits(ms[i].Bin)
			if err != nil {
				return err
			}
			if round == 0 || c.Clock < ms[i].Init.Clock {
				ms[i].Init = c
			}
		}
	}
	return nil
}
