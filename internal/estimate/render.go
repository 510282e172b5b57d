package estimate

import (
	"fmt"
	"io"
	"strings"
)

// Render writes every step of the arithmetic, one per line, then the
// figures to use and any notes.
func Render(w io.Writer, r Result) error {
	var b strings.Builder
	labelW, formulaW := 0, 0
	for _, s := range r.Steps {
		labelW = max(labelW, len([]rune(s.Label)))
		formulaW = max(formulaW, len([]rune(s.Formula)))
	}
	b.WriteString("Load estimate\n")
	for _, s := range r.Steps {
		fmt.Fprintf(&b, "  %s  %s  = %s %s\n", pad(s.Label, labelW), pad(s.Formula, formulaW), num(s.Value), s.Unit)
	}
	b.WriteString("\nTest with\n")
	fmt.Fprintf(&b, "  open model (arrival-rate)  %s req/s\n", num(r.TargetRPS))
	if r.VUs > 0 {
		fmt.Fprintf(&b, "  closed model (vus)         %s VUs with %s think time\n", num(float64(r.VUs)), dur(r.Input.ThinkTime))
	}
	if r.Instances > 0 {
		line := fmt.Sprintf("  instances                  %d", r.Instances)
		if r.Nodes > 0 {
			line += fmt.Sprintf(" on %d nodes", r.Nodes)
		}
		b.WriteString(line + "\n")
	}
	if r.CostPerDay > 0 {
		fmt.Fprintf(&b, "  cost                       %s %s\n", num(r.CostPerDay), perDay(r.Currency))
	}
	for _, n := range r.Notes {
		b.WriteString("\nnote: " + n + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pad right-pads s with spaces to n runes.
func pad(s string, n int) string {
	if k := len([]rune(s)); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
