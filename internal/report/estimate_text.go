package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/units"
)

// EstimateColumns is the width WriteEstimateText keeps every line within: a terminal of 100
// columns shows the arithmetic without wrapping it mid-word.
const EstimateColumns = 100

// WriteEstimateText writes every step of an estimate's arithmetic, one per line (a formula too
// long for its column continues on the next lines), then the figures to
// use and any notes, all within EstimateColumns.
func WriteEstimateText(w io.Writer, r estimate.Result) error {
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
	formulaW = max(20, min(formulaW, EstimateColumns-2-labelW-2-2-valueW))
	b.WriteString("Load estimate\n")
	for i, s := range r.Steps {
		lines := wrapFormula(s.Formula, formulaW)
		fmt.Fprintf(&b, "  %s  %s  %s\n", padRight(s.Label, labelW), padRight(lines[0], formulaW), values[i])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %s  %s\n", strings.Repeat(" ", labelW), l)
		}
	}
	b.WriteString("\nTest with\n")
	fmt.Fprintf(&b, "  open model (arrival-rate)  %s\n", r.Input.Unit.Rate(r.TargetRPS))
	if r.VUs > 0 {
		fmt.Fprintf(&b, "  closed model (vus)         %s with %s think time\n", units.CountOf(int64(r.VUs), "VU", "VUs"), units.DurationLiteral(r.Input.ThinkTime))
	}
	bound := "" // the figures below are upper bounds when one instance's capacity is known only from below
	if r.AtMost {
		bound = "at most "
	}
	if r.Instances > 0 {
		line := "  instances                  " + bound + units.CountOf(int64(r.Instances), "instance", "instances")
		if r.Nodes > 0 {
			line += " on " + units.CountOf(int64(r.Nodes), "node", "nodes")
		}
		b.WriteString(line + "\n")
	}
	if r.CostPerDay > 0 {
		fmt.Fprintf(&b, "  cost                       %s%s %s\n", bound, units.Number(r.CostPerDay), estimate.PerDay(r.Currency))
	}
	for _, n := range r.Notes {
		// The continuation lines are indented 6 columns under "note: ".
		b.WriteString("\n" + strings.Join(wrapFormula("note: "+n, EstimateColumns-6), "\n      ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrapFormula breaks s into lines of at most width runes at spaces, keeping an
// equation such as "N = X·(R+Z)" whole; a word longer than width (a path)
// is cut.
func wrapFormula(s string, width int) []string {
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

// runes counts the characters of s as a terminal shows them.
func runes(s string) int { return utf8.RuneCountInString(s) }

// padRight right-pads s with spaces to n runes.
func padRight(s string, n int) string {
	if k := runes(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
