package units

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape makes text the target supplied (a reason phrase, an error sample,
// a header value, a URL it redirected to) safe to print on a terminal:
// control characters (C0, DEL, C1), bidirectional controls and bytes
// that are not UTF-8 are shown as Go escapes ("\x1b", "\r", "\u202e",
// "\xff"), so the target cannot clear the screen, set the title or
// rewrite a line. Other text, backslashes included, is left as it is.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s // the common case: nothing to escape, nothing allocated
	}
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	sb.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			sb.WriteString(`\x`)
			sb.WriteString(hex2(s[i]))
		case Unsafe(r, size):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\r', '\u202e'
			sb.WriteString(q[1 : len(q)-1])
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

// Unsafe reports a rune a terminal would act on rather than show (or that
// reorders what follows it), or an invalid byte (size 1 with RuneError):
// the runes Escape escapes, for callers that escape as they copy.
func Unsafe(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0: // C0, DEL, C1 (0x9b is a one-byte CSI)
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides and isolates
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // bidi marks: the rest of unicode.Bidi_Control
		return true
	}
	return false
}

func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&0xf]})
}
