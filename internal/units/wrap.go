package units

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Columns is the terminal width every line loadlens prints fits in.
const Columns = 100

// Keep is the no-break space that Wrap never breaks a line at.
const Keep = "\u00a0"

// breaks reports whether Wrap may break a line at r.
func breaks(r rune) bool { return unicode.IsSpace(r) && r != '\u00a0' }

// Wrap breaks text into lines of at most width columns at spaces, the
// first starting with first and the others with rest (a hanging indent);
// a word longer than a line stays whole. A no-break space (Keep) joins
// words that must stay on one line, a figure and its unit, and prints as
// a space. Every line ends in a newline.
func Wrap(text string, width int, first, rest string) string {
	var sb strings.Builder
	line := first
	n := utf8.RuneCountInString(line)
	fresh := true
	for _, w := range strings.FieldsFunc(text, breaks) {
		w = strings.ReplaceAll(w, Keep, " ")
		wn := utf8.RuneCountInString(w)
		if !fresh && n+1+wn > width {
			sb.WriteString(line + "\n")
			line, n, fresh = rest, utf8.RuneCountInString(rest), true
		}
		if !fresh {
			line += " "
			n++
		}
		line += w
		n += wn
		fresh = false
	}
	sb.WriteString(line + "\n")
	return sb.String()
}
