package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// listFlag is a repeatable string flag (-H 'K: V' -H ...).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// parseArgs parses flags placed before, between or after the positional
// arguments (`run URL --rate 10` and `run --rate 10 URL` alike), which the
// flag package alone stops doing at the first positional argument. Every
// positional argument is kept in order; `--` ends the flags; an unknown
// flag is an error. Errors are printed on one line to the flag set's
// output; -h prints the usage and returns flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	flags, positional, err := splitArgs(fs, args)
	if err == nil {
		// The flag package prints its error and the whole usage on failure;
		// the error alone, on one line, is what the user needs.
		out, usage := fs.Output(), fs.Usage
		fs.SetOutput(io.Discard)
		fs.Usage = func() {}
		err = fs.Parse(flags)
		fs.SetOutput(out)
		fs.Usage = usage
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return nil, err
	case err != nil:
		fmt.Fprintf(fs.Output(), "loadlens %s: %s (see `loadlens %s -h`)\n", fs.Name(), durationHint(fs, err), fs.Name())
		return nil, err
	}
	return positional, nil
}

// splitArgs separates flags (with their values) from positional arguments,
// using fs to know which flags take a value. It reports an unknown flag
// with the flag package's wording, and -h as flag.ErrHelp.
func splitArgs(fs *flag.FlagSet, args []string) (flags, positional []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(positional, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a) // "-" alone is a positional, by convention stdin
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return nil, nil, fmt.Errorf("bad flag syntax: %s", a)
		}
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, nil, flag.ErrHelp
			}
			return nil, nil, fmt.Errorf("flag provided but not defined: -%s", name)
		}
		flags = append(flags, a)
		if hasValue || isBoolFlag(f) {
			continue
		}
		if i+1 == len(args) {
			return nil, nil, fmt.Errorf("flag needs an argument: -%s", name)
		}
		i++
		flags = append(flags, args[i])
	}
	return flags, positional, nil
}

// isBoolFlag reports whether f is a boolean flag, which takes no value
// unless written -f=false.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// durationHint rewrites the flag package's "parse error" for a duration
// flag given a bare number (--duration 5) into what is missing: a unit.
func durationHint(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	_, rest, ok := strings.Cut(msg, " for flag -")
	if !ok || !strings.HasSuffix(msg, ": parse error") {
		return msg
	}
	f := fs.Lookup(strings.TrimSuffix(rest, ": parse error"))
	if f == nil {
		return msg
	}
	if g, ok := f.Value.(flag.Getter); !ok {
		return msg
	} else if _, isDuration := g.Get().(time.Duration); !isDuration {
		return msg
	}
	return strings.TrimSuffix(msg, "parse error") + "a duration needs a unit, like 5s, 500ms or 2m"
}
