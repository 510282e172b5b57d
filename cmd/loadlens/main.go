// Command loadlens is a load-testing and performance-diagnosis tool.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/loadlens/loadlens/internal/cli"
)

func main() {
	log.SetOutput(cli.NewLimitedLog(os.Stderr))
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	first, again := cli.StopNotice(os.Args[1:])
	go stopOnSignals(sigs, cancel, first, again)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	cancel(nil)
	os.Exit(code)
}

// stopOnSignals stops the command at the first signal (saying first) and
// lets it write what it measured: the second only says so (again), because
// `timeout -s INT`, a shell or an impatient hand often sends two at once,
// and quitting then would lose the run's summary and report. A third quits
// at once.
func stopOnSignals(sigs <-chan os.Signal, cancel context.CancelCauseFunc, first, again string) {
	sig := <-sigs
	if sig == os.Interrupt { // a person pressed Ctrl-C; SIGTERM comes from a program
		fmt.Fprintln(os.Stderr, "\n"+first)
	}
	cancel(cli.Stopped(sig))
	<-sigs
	fmt.Fprintln(os.Stderr, again)
	<-sigs
	os.Exit(1) // run.db already holds every second but the last
}
