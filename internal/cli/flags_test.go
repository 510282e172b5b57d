package cli

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantPos []string
		wantE   []string // values of -e, in order
		wantN   int
		wantB   bool
		wantErr string // "" for success
	}{
		{"positionals only", []string{"a", "b", "c"}, []string{"a", "b", "c"}, nil, 0, false, ""},
		{"flags after three positionals", []string{"a", "b", "c", "-n", "5", "--b"}, []string{"a", "b", "c"}, nil, 5, true, ""},
		{"flags between positionals", []string{"b", "-e", "K=1", "a", "--n=2", "c", "-e", "L=2"}, []string{"b", "a", "c"}, []string{"K=1", "L=2"}, 2, false, ""},
		{"flags first", []string{"--n", "3", "x"}, []string{"x"}, nil, 3, false, ""},
		{"double dash ends flags", []string{"a", "--", "-n", "--b"}, []string{"a", "-n", "--b"}, nil, 0, false, ""},
		{"a value that looks like a flag", []string{"-e", "--", "a"}, []string{"a"}, []string{"--"}, 0, false, ""},
		{"bool with explicit value", []string{"--b=false", "a"}, []string{"a"}, nil, 0, false, ""},
		{"single dash is positional", []string{"-"}, []string{"-"}, nil, 0, false, ""},
		{"many positionals kept", []string{"1", "2", "3", "4", "5", "6", "-n", "1", "7"}, []string{"1", "2", "3", "4", "5", "6", "7"}, nil, 1, false, ""},
		{"unknown flag after positionals", []string{"a", "b", "--nope"}, nil, nil, 0, false, "flag provided but not defined: -nope"},
		{"unknown flag with a value", []string{"--nope=1", "a"}, nil, nil, 0, false, "flag provided but not defined: -nope"},
		{"missing value", []string{"a", "-n"}, nil, nil, 0, false, "flag needs an argument: -n"},
		{"bad value", []string{"-n", "x"}, nil, nil, 0, false, `invalid value "x" for flag -n: parse error`},
		{"bad syntax", []string{"---n", "1"}, nil, nil, 0, false, "bad flag syntax: ---n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			fs.SetOutput(&out)
			var envs listFlag
			fs.Var(&envs, "e", "")
			n := fs.Int("n", 0, "")
			b := fs.Bool("b", false, "")
			pos, err := parseArgs(fs, tt.args)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				want := "loadlens x: " + tt.wantErr + " (see `loadlens x -h`)\n"
				if out.String() != want {
					t.Fatalf("printed %q, want the one line %q", out.String(), want)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if !slices.Equal(pos, tt.wantPos) || !slices.Equal(envs, tt.wantE) || *n != tt.wantN || *b != tt.wantB {
				t.Fatalf("positionals %q, -e %q, -n %d, -b %v; want %q, %q, %d, %v", pos, envs, *n, *b, tt.wantPos, tt.wantE, tt.wantN, tt.wantB)
			}
		})
	}
}

func TestParseArgsHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"a", "--help"}, {"a", "-help", "b"}} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		called := false
		fs.Usage = func() { called = true }
		if _, err := parseArgs(fs, args); !errors.Is(err, flag.ErrHelp) || !called {
			t.Errorf("%q: error %v, usage printed %v; want flag.ErrHelp and the usage", args, err, called)
		}
	}
}

func TestABareDurationAsksForAUnit(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "http://127.0.0.1:1/", "--duration", "5"}, `invalid value "5" for flag -duration: a duration needs a unit, like 5s, 500ms or 2m`},
		{[]string{"run", "http://127.0.0.1:1/", "--timeout=30"}, `invalid value "30" for flag -timeout: a duration needs a unit`},
		{[]string{"run", "http://127.0.0.1:1/", "--vus", "x"}, `invalid value "x" for flag -vus: parse error`},
	}
	for _, tt := range tests {
		t.Run(tt.args[2], func(t *testing.T) {
			code, _, stderr := main(tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
		})
	}
}
