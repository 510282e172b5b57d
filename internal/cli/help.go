package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// usageColumn is where a command's description starts in `loadlens -h`.
const usageColumn = 52

// writeCommandLine writes one row of `loadlens -h`: the usage, then the
// description wrapped under its own column; a usage too long for its
// column gets a line of its own.
func writeCommandLine(w io.Writer, usage, help string) {
	lead := "  loadlens " + usage
	indent := strings.Repeat(" ", usageColumn)
	if utf8.RuneCountInString(lead) >= usageColumn {
		fmt.Fprintln(w, lead)
		io.WriteString(w, units.Wrap(help, units.Columns, indent, indent))
		return
	}
	first := lead + strings.Repeat(" ", usageColumn-utf8.RuneCountInString(lead))
	io.WriteString(w, units.Wrap(help, units.Columns, first, indent))
}

// flagIndent is where a flag's help starts: the column flag's own tab
// reached, in spaces so that the width is the same on every terminal.
const flagIndent = "        "

// printFlags writes fs's flags as flag.PrintDefaults does — its wording,
// its defaults — but with each help wrapped at units.Columns.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	var buf bytes.Buffer
	out := fs.Output()
	fs.SetOutput(&buf)
	fs.PrintDefaults()
	fs.SetOutput(out)
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		if help, ok := strings.CutPrefix(line, "    \t"); ok {
			io.WriteString(w, units.Wrap(help, units.Columns, flagIndent, flagIndent))
			continue
		}
		if name, help, ok := strings.Cut(line, "\t"); ok { // a one-letter bool flag shares its line
			fmt.Fprintln(w, name)
			io.WriteString(w, units.Wrap(help, units.Columns, flagIndent, flagIndent))
			continue
		}
		fmt.Fprintln(w, line)
	}
}
