package yamldoc

import (
	"strings"
	"unicode"
)

// MaxExcerpt is the most runes of a file's text an error quotes: a key or
// a CSV column read from a file the user did not mean (a link to
// /etc/shadow) is named, not shown.
const MaxExcerpt = 20

// Excerpt is s cut to MaxExcerpt runes ("…" marks the cut) with every
// rune that does not print as itself (controls, escapes) replaced by '?',
// for an error that quotes text read from a file.
func Excerpt(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == MaxExcerpt {
			b.WriteString("…")
			break
		}
		if !unicode.IsPrint(r) {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
