// Command truth measures how often loadlens's verdicts are right (issue 20):
// it starts real services with known faults on loopback (a Spring Boot
// service on PostgreSQL and Redis, the demo shop, nginx, loadlens's mock),
// runs the real loadlens binary against each, and scores its findings,
// capacity searches, estimates and compare gates against ground truth
// measured apart from loadlens's analysis.
//
//	go run ./bench/truth                       # the whole catalogue, 3 times; writes docs/accuracy.md
//	go run ./bench/truth -cases pool-small,gc -repeat 1
//	go run ./bench/truth -quick                # the test command's subset
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config is one session's settings, from the flags.
type Config struct {
	Cases  []string
	Repeat int
	Quick  bool
	Out    string        // raw results go to a new directory under it
	Doc    string        // docs/accuracy.md; "" for none
	Busy   float64       // cores other processes may use during a run before it is unjudged
	Wait   time.Duration // how long to wait for a quiet host before each run
	Spring string        // truthapp's sources, with build.sh
	Merge  []string      // saved sessions' results to join instead of running
	Save   bool          // keep the raw results under bench/truth/results for a later -merge
}

var (
	logMu  sync.Mutex
	logOut io.Writer = os.Stderr
)

// logf prints a progress line with the time.
func logf(format string, args ...any) {
	logMu.Lock()
	defer logMu.Unlock()
	fmt.Fprintf(logOut, "%s truth: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "truth:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run := Run
	if len(cfg.Merge) > 0 {
		run = Merge
	}
	rep, err := run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "truth:", err)
		os.Exit(2)
	}
	if len(rep.Misses) > 0 {
		fmt.Fprintf(os.Stderr, "truth: %d targets missed:\n", len(rep.Misses))
		for _, m := range rep.Misses {
			fmt.Fprintln(os.Stderr, "  "+m)
		}
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "truth: every target met")
}

// parseFlags reads the command line.
func parseFlags(args []string) (Config, error) {
	fs := flag.NewFlagSet("truth", flag.ContinueOnError)
	cases := fs.String("cases", "", "only these cases, comma-separated (findings, capacity and compare ids)")
	repeat := fs.Int("repeat", 3, "runs of each case")
	quick := fs.Bool("quick", false, "the test command's subset: one demo-shop case, one truthapp case and their healthy counterparts, once, shortened")
	out := fs.String("out", "", "directory for raw results (default bench/truth/out/<date-time> under the module)")
	doc := fs.String("doc", "", "write the accuracy tables here (default docs/accuracy.md for the whole catalogue, none otherwise)")
	busy := fs.Float64("busy", 0.5, "cores other processes may use on average during a run before it is unjudged")
	wait := fs.Duration("wait", 3*time.Minute, "how long to wait, before each run, for other processes to use less than -busy")
	spring := fs.String("spring", "", "truthapp's sources with build.sh (default bench/truth/spring under the module)")
	merge := fs.String("merge", "", "join these sessions' results.json (comma-separated, .gz too) of the same tested code into one score; runs nothing")
	save := fs.Bool("save", false, "keep the raw results under bench/truth/results for a later -merge (always for the whole catalogue)")
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *repeat < 1 {
		return Config{}, fmt.Errorf("-repeat %d: at least 1", *repeat)
	}
	cfg := Config{Repeat: *repeat, Quick: *quick, Out: *out, Doc: *doc, Busy: *busy, Wait: *wait, Spring: *spring, Save: *save}
	if *cases != "" {
		cfg.Cases = strings.Split(*cases, ",")
	}
	if *merge != "" {
		cfg.Merge = strings.Split(*merge, ",")
	}
	if cfg.Quick && len(cfg.Cases) > 0 {
		return Config{}, errors.New("-quick and -cases: choose one")
	}
	if len(cfg.Merge) > 0 && (cfg.Quick || len(cfg.Cases) > 0 || cfg.Save) {
		return Config{}, errors.New("-merge runs nothing: it takes no -quick, -cases or -save")
	}
	return cfg, nil
}

// moduleRoot is the directory of the module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the loadlens module")
	}
	return filepath.Dir(mod), nil
}

// defaults fills the paths the flags left empty.
func (c *Config) defaults(root string, now time.Time) {
	if c.Out == "" {
		c.Out = filepath.Join(root, "bench", "truth", "out", now.Format("20060102-150405"))
	}
	if c.Spring == "" {
		c.Spring = filepath.Join(root, "bench", "truth", "spring")
	}
	if c.Doc == "" && !c.Quick && len(c.Cases) == 0 {
		c.Doc = filepath.Join(root, "docs", "accuracy.md")
	}
	if !c.Quick && len(c.Cases) == 0 {
		c.Save = true // the whole catalogue's sessions add up to the repetitions the score needs
	}
}
