// Command loadlens is a load-testing and performance-diagnosis tool.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/loadlens/loadlens/internal/cli"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		if <-sigs == os.Interrupt { // a person pressed Ctrl-C; SIGTERM comes from a program
			fmt.Fprintln(os.Stderr, "\nstopping: writing the results (press Ctrl-C again to quit at once)")
		}
		cancel()
		<-sigs
		os.Exit(1) // run.db already holds every second but the last
	}()
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}
