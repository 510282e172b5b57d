package diagnose

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Render writes findings as plain text for the terminal summary: per
// finding its severity and title, the seconds, the evidence and the
// remedies. It writes nothing for no findings; print Healthy then.
func Render(w io.Writer, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	b := bufio.NewWriter(w)
	noun := "findings"
	if len(fs) == 1 {
		noun = "finding"
	}
	b.WriteString(strconv.Itoa(len(fs)) + " " + noun + "\n")
	for _, f := range fs {
		b.WriteString("\n" + pad(strings.ToUpper(f.Severity.String()), 10) + f.Title + "\n")
		b.WriteString(indent + f.Kind + ", seconds " + strconv.Itoa(f.From) + "–" + strconv.Itoa(f.To) + "\n")
		if len(f.Evidence) > 0 {
			b.WriteString(indent + "evidence:\n")
			for _, e := range f.Evidence {
				b.WriteString(indent + "  " + pad(at(e.Sec), 6) + e.Text + "  [" + e.Source + " = " + num(e.Value) + "]\n")
			}
		}
		if len(f.Remedies) > 0 {
			b.WriteString(indent + "usual remedies, cheapest first:\n")
			for i, r := range f.Remedies {
				b.WriteString(indent + "  " + strconv.Itoa(i+1) + ". " + r + "\n")
			}
		}
	}
	return b.Flush()
}

// indent aligns the lines under a finding's title.
const indent = "          "

// pad left-aligns s in a field of n characters.
func pad(s string, n int) string {
	if l := len([]rune(s)); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s + " "
}
