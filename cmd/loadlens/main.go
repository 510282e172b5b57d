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
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go stopOnSignals(sigs, cancel)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// stopOnSignals stops the command at the first signal and lets it write
// what it measured: the second only says so, because `timeout -s INT`, a
// shell or an impatient hand often sends two at once, and quitting then
// would lose the run's summary and report. A third quits at once.
func stopOnSignals(sigs <-chan os.Signal, cancel context.CancelFunc) {
	if <-sigs == os.Interrupt { // a person pressed Ctrl-C; SIGTERM comes from a program
		fmt.Fprintln(os.Stderr, "\nstopping: writing the results (Ctrl-C twice more quits at once, without them)")
	}
	cancel()
	<-sigs
	fmt.Fprintln(os.Stderr, "still writing the results; Ctrl-C once more quits without them")
	<-sigs
	os.Exit(1) // run.db already holds every second but the last
}
