package cli

import (
	"flag"
	"strings"
)

// listFlag is a repeatable string flag (-H 'K: V' -H ...).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// parseArgs parses flags placed before, between or after the positional
// arguments (`run URL --rate 10` and `run --rate 10 URL` alike), which
// the flag package alone stops doing at the first positional argument.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for i := 0; i <= len(args); i++ { // bounded: each pass consumes at least one argument
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return positional, nil
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}
