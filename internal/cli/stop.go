package cli

import (
	"context"
	"os"
	"slices"
	"strings"
)

// StopNotice is what the program says on the first and the second Ctrl-C
// for the command line args: a command that measures something writes its
// results after the first; a server (demo --serve, mock, agent) has none
// to write and just stops.
func StopNotice(args []string) (first, again string) {
	if !writesResults(args) {
		return "stopping", "still stopping; Ctrl-C once more quits at once"
	}
	return "stopping: writing the results (Ctrl-C twice more quits at once, without them)",
		"still writing the results; Ctrl-C once more quits without them"
}

// writesResults reports whether the command in args measures a run whose
// results it writes when stopped.
func writesResults(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "run", "capacity":
		return true
	case "k8s":
		return len(args) > 1 && args[1] == "run"
	case "demo":
		return !slices.ContainsFunc(args[1:], isServeFlag) && !(len(args) > 1 && args[1] == "seed")
	}
	return false
}

// isServeFlag reports whether arg turns on demo's --serve.
func isServeFlag(arg string) bool {
	name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return strings.HasPrefix(arg, "-") && name == "serve" && (!hasValue || value == "true" || value == "1")
}

// Stopped is the cause a signal gives the command's context: it names the
// signal ("terminated", "interrupt") so an agent can tell its coordinator
// why it stopped, and it is context.Canceled to whoever asks, as before.
func Stopped(sig os.Signal) error { return stopSignal{sig} }

type stopSignal struct{ sig os.Signal }

func (s stopSignal) Error() string        { return s.sig.String() }
func (s stopSignal) Is(target error) bool { return target == context.Canceled }
