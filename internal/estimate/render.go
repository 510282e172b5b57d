package estimate

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// Columns is the width Render keeps every line within: a terminal of 100
// columns shows the arithmetic without wrapping it mid-word.
const Columns = 100

// Render writes every step of the arithmetic, one per line (a formula too
// long for its column continues on the next lines), then the figures to
// use and any notes, all within Columns.
func Render(w io.Writer, r Result) error {
	var b strings.Builder
	labelW, formulaW, valueW := 0, 0, 0
	values := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		values[i] = "= " + units.Number(s.Value) + " " + s.Unit
		labelW = max(labelW, runes(s.Label))
		formulaW = max(formulaW, runes(s.Formula))
		valueW = max(valueW, runes(values[i]))
	}
	// Two spaces of indent and two between columns; the formula gets what is left.
	formulaW = max(20, min(formulaW, Columns-2-labelW-2-2-valueW))
	b.WriteString("Load estimate\n")
	for i, s := range r.Steps {
		lines := wrap(s.Formula, formulaW)
		fmt.Fprintf(&b, "  %s  %s  %s\n", pad(s.Label, labelW), pad(lines[0], formulaW), values[i])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %s  %s\n", strings.Repeat(" ", labelW), l)
		}
	}
	b.WriteString("\nTest with\n")
	fmt.Fprintf(&b, "  open model (arrival-rate)  %s req/s\n", units.Number(r.TargetRPS))
	if r.VUs > 0 {
		fmt.Fprintf(&b, "  closed model (vus)         %s with %s think time\n", units.CountOf(int64(r.VUs), "VU", "VUs"), units.DurationLiteral(r.Input.ThinkTime))
	}
	if r.Instances > 0 {
		line := "  instances                  " + units.CountOf(int64(r.Instances), "instance", "instances")
		if r.Nodes > 0 {
			line += " on " + units.CountOf(int64(r.Nodes), "node", "nodes")
		}
		b.WriteString(line + "\n")
	}
	if r.CostPerDay > 0 {
		fmt.Fprintf(&b, "  cost                       %s %s\n", units.Number(r.CostPerDay), perDay(r.Currency))
	}
	for _, n := range r.Notes {
		b.WriteString("\n" + strings.Join(wrap("note: "+n, Columns), "\n      ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap breaks s into lines of at most width runes at spaces, keeping an
// equation such as "N = X·(R+Z)" whole; a word longer than width (a path)
// is cut.
func wrap(s string, width int) []string {
	var words []string
	for _, w := range strings.Fields(s) {
		if n := len(words); n > 0 && (w == "=" || words[n-1] == "=" || strings.HasSuffix(words[n-1], " =")) {
			words[n-1] += " " + w
			continue
		}
		words = append(words, w)
	}
	var lines []string
	line := ""
	for _, word := range words {
		for runes(word) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			cut := []rune(word)
			lines, word = append(lines, string(cut[:width])), string(cut[width:])
		}
		switch {
		case line == "":
			line = word
		case runes(line)+1+runes(word) <= width:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	return append(lines, line)
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// pad right-pads s with spaces to n runes.
func pad(s string, n int) string {
	if k := runes(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
