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

// Middle fits s into width columns by cutting its middle out and putting
// "…" in its place, so that both ends survive: an endpoint's method and
// its last segments, a run's time and its name. s is returned whole when
// it fits; a width below 2 keeps only the "…".
func Middle(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	if width < 2 {
		return "…"
	}
	head := (width - 1) / 2 // the end, which tells names apart, gets the odd column
	return string(r[:head]) + "…" + string(r[len(r)-(width-1-head):])
}
