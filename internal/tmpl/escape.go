package tmpl

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// escapeTail escapes dst[start:] in place with e, growing dst only when its
// capacity is short, so an escaped part renders without a scratch buffer.
func escapeTail(dst []byte, start int, e Escape) []byte {
	if e == JSONValue {
		if json.Valid(dst[start:]) {
			return dst
		}
		dst = append(escapeTail(dst, start, JSONString), '"')
		return slices.Insert(dst, start, '"')
	}
	m := len(dst) - start
	n := escapedLen(dst[start:], e)
	if n == m {
		// Nothing lengthened, so the only change can be a query's spaces.
		if e == QueryComponent {
			for i := start; i < len(dst); i++ {
				if dst[i] == ' ' {
					dst[i] = '+'
				}
			}
		}
		return dst
	}
	// Move the raw text behind room for the escaped text, then escape it
	// forwards: the write position never passes the read position.
	dst = slices.Grow(dst, n)
	dst = dst[:start+n+m]
	copy(dst[start+n:], dst[start:start+m])
	return appendEscaped(dst[:start], dst[start+n:], e)
}

// escapedLen returns the length of src escaped with e.
func escapedLen(src []byte, e Escape) int {
	n := 0
	switch e {
	case QueryComponent:
		for i := 0; i < len(src); i++ {
			if queryUnreserved(src[i]) || src[i] == ' ' {
				n++
			} else {
				n += 3
			}
		}
	case JSONString, JSONValue: // JSONValue's quotes are not counted
		for i := 0; i < len(src); {
			w, size := jsonEscapedRune(src[i:])
			n += w
			i += size
		}
	default:
		n = len(src)
	}
	return n
}

// appendEscaped appends src escaped with e to dst.
func appendEscaped(dst []byte, src []byte, e Escape) []byte {
	switch e {
	case QueryComponent:
		return appendQuery(dst, src)
	case JSONString:
		return appendJSON(dst, src)
	case JSONValue:
		if json.Valid(src) {
			return append(dst, src...)
		}
		return append(appendJSON(append(dst, '"'), src), '"')
	}
	return append(dst, src...)
}

// appendQuery escapes like url.QueryEscape: space as +, the rest of what is
// not unreserved as %XX.
func appendQuery(dst []byte, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		b := src[i]
		switch {
		case queryUnreserved(b):
			dst = append(dst, b)
		case b == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', upperHex[b>>4], upperHex[b&0x0f])
		}
	}
	return dst
}

const upperHex = "0123456789ABCDEF"

// queryUnreserved reports whether url.QueryEscape leaves b as is.
func queryUnreserved(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '-' || b == '_' || b == '.' || b == '~'
}

// appendJSON escapes the way encoding/json writes a string without HTML
// escaping: quotes, backslashes, control characters, U+2028 and U+2029
// escaped, invalid UTF-8 bytes replaced by \ufffd.
func appendJSON(dst []byte, src []byte) []byte {
	for i := 0; i < len(src); {
		b := src[i]
		if b < utf8.RuneSelf {
			i++
			switch {
			case b == '"' || b == '\\':
				dst = append(dst, '\\', b)
			case b >= 0x20:
				dst = append(dst, b)
			case b == '\b':
				dst = append(dst, '\\', 'b')
			case b == '\f':
				dst = append(dst, '\\', 'f')
			case b == '\n':
				dst = append(dst, '\\', 'n')
			case b == '\r':
				dst = append(dst, '\\', 'r')
			case b == '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0x0f])
			}
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0x0f])
		default:
			dst = append(dst, src[i:i+size]...)
		}
		i += size
	}
	return dst
}

// jsonEscapedRune returns the escaped length and the source length of the
// first character of src, as appendJSON writes it.
func jsonEscapedRune(src []byte) (escaped, size int) {
	b := src[0]
	if b < utf8.RuneSelf {
		switch {
		case b == '"' || b == '\\':
			return 2, 1
		case b >= 0x20:
			return 1, 1
		case b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
			return 2, 1
		}
		return 6, 1
	}
	r, size := utf8.DecodeRune(src)
	switch {
	case r == utf8.RuneError && size == 1:
		return 6, 1
	case r == '\u2028' || r == '\u2029':
		return 6, size
	}
	return size, size
}
