package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
)

const completionUsage = "completion bash|zsh|fish"

// flagLine matches a flag in a command's -h output: "  -name value".
var flagLine = regexp.MustCompile(`(?m)^  -([A-Za-z0-9][A-Za-z0-9-]*)`)

// completionCmd prints a shell completion script: commands, each
// command's flags (read from its own -h, so never out of date), and files.
func completionCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "completion", completionUsage)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("completion takes a shell: bash, zsh or fish (e.g. source <(loadlens completion bash))"))
	}
	flags := commandFlags(ctx)
	switch pos[0] {
	case "bash":
		writeBash(e.stdout, flags)
	case "zsh":
		fmt.Fprintln(e.stdout, "#compdef loadlens\nautoload -U +X compinit && compinit -u\nautoload -U +X bashcompinit && bashcompinit")
		writeBash(e.stdout, flags)
	case "fish":
		writeFish(e.stdout, flags)
	default:
		return fail(e, usageErr("completion: unknown shell %q (bash, zsh or fish)", pos[0]))
	}
	return app.ExitOK
}

// commandFlags returns each command's flags, sorted, by command name.
func commandFlags(ctx context.Context) map[string][]string {
	out := map[string][]string{}
	for _, c := range commands() {
		if c.name == "completion" {
			out[c.name] = nil
			continue
		}
		var help bytes.Buffer
		c.run(ctx, &env{stdout: &help, stderr: io.Discard}, []string{"-h"})
		var names []string
		for _, m := range flagLine.FindAllStringSubmatch(help.String(), -1) {
			names = append(names, m[1])
		}
		sort.Strings(names)
		out[c.name] = names
	}
	return out
}

func commandNames(flags map[string][]string) []string {
	var names []string
	for _, c := range commands() {
		if _, ok := flags[c.name]; ok {
			names = append(names, c.name)
		}
	}
	return names
}

// dashed writes a flag as it is typed: --name, or -u for one letter.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func writeBash(w io.Writer, flags map[string][]string) {
	fmt.Fprintf(w, `_loadlens() {
  local cur=${COMP_WORDS[COMP_CWORD]} flags=
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W %q -- "$cur"))
    return
  fi
  case "${COMP_WORDS[1]}" in
`, strings.Join(commandNames(flags), " "))
	for _, c := range commandNames(flags) {
		var fl []string
		for _, f := range flags[c] {
			fl = append(fl, dashed(f))
		}
		fmt.Fprintf(w, "    %s) flags=%q ;;\n", c, strings.Join(fl, " "))
	}
	fmt.Fprint(w, `  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [ "${COMP_WORDS[1]}" = completion ]; then
    COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _loadlens loadlens
`)
}

func writeFish(w io.Writer, flags map[string][]string) {
	names := commandNames(flags)
	fmt.Fprintf(w, "complete -c loadlens -f -n __fish_use_subcommand -a %q\n", strings.Join(names, " "))
	fmt.Fprintln(w, "complete -c loadlens -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
	for _, c := range names {
		for _, f := range flags[c] {
			opt := "-l " + f
			if len(f) == 1 {
				opt = "-s " + f
			}
			fmt.Fprintf(w, "complete -c loadlens -n '__fish_seen_subcommand_from %s' %s\n", c, opt)
		}
	}
}
