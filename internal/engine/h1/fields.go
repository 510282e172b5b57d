package h1

import (
	"bytes"
	"encoding/binary"
)

// validNameByte reports a byte net/textproto accepts in a field name: an
// RFC 9110 token character, or a space, which textproto tolerates (and then
// leaves the name as is, so "Content-Length :" names another field).
func validNameByte(c byte) bool {
	const mask = 0 |
		(1<<10-1)<<'0' |
		(1<<26-1)<<'a' |
		(1<<26-1)<<'A' |
		1<<'!' | 1<<'#' | 1<<'$' | 1<<'%' | 1<<'&' | 1<<'\'' | 1<<'*' |
		1<<'+' | 1<<'-' | 1<<'.' | 1<<'^' | 1<<'_' | 1<<'`' | 1<<'|' | 1<<'~' |
		1<<' '
	return in128(c, mask&(1<<64-1), mask>>64)
}

// validValueByte reports a byte allowed in a field value: visible ASCII,
// space, tab, and obs-text (bytes of 0x80 and above), as net/textproto.
func validValueByte(c byte) bool {
	const mask = 0 |
		(1<<(0x7f-0x21)-1)<<0x21 |
		1<<' ' |
		1<<'\t'
	return c >= 0x80 || in128(c, mask&(1<<64-1), mask>>64)
}

// nameBytes is validNameByte as a table: one load per byte where the
// predicate's shifts took five operations, on the head's hottest loop.
var nameBytes = byteTable(validNameByte)

// byteTable tabulates a byte predicate.
func byteTable(ok func(byte) bool) (t [256]bool) {
	for c := range 256 {
		t[c] = ok(byte(c))
	}
	return t
}

// in128 tests c against a 128-bit set given as its low and high halves;
// bytes of 128 and above are never in it (the shifts give zero).
func in128(c byte, lo, hi uint64) bool {
	return (uint64(1)<<c)&lo|(uint64(1)<<(c-64))&hi != 0
}

func validName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !nameBytes[c] {
			return false
		}
	}
	return true
}

// validValue reports a field value of allowed bytes. It tests eight bytes
// at a time for the rare ones that need a closer look (below 0x20, tab
// included, or 0x7f): values are most of a head's bytes.
func validValue(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		below := (x - 0x20*ones) &^ x & highs // nonzero iff a byte < 0x20 (bytes ≥ 0x80 are excluded by &^ x)
		d := x ^ 0x7f*ones
		del := (d - ones) &^ d & highs // nonzero iff a byte is 0x7f
		if below|del != 0 {
			break
		}
		b = b[8:]
	}
	for _, c := range b {
		if !validValueByte(c) {
			return false
		}
	}
	return true
}

// trimBlank drops leading and trailing spaces and tabs.
func trimBlank(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// HeaderValues appends to dst the values of the header fields named name
// (case-insensitive), as strings, in the order received.
func HeaderValues(lines []byte, name string, dst []string) []string {
	for it := (headerLines{rest: lines}); ; {
		n, v, ok := it.next()
		if !ok {
			return dst
		}
		if equalFold(n, name) {
			dst = append(dst, string(v))
		}
	}
}

// headerLines walks Response.Header's lines without allocating.
type headerLines struct{ rest []byte }

// next returns the next field's name and value; ok is false at the end.
// A name ends at its line's first colon, and the value is the rest after
// the one space the client writes there.
func (h *headerLines) next() (name, value []byte, ok bool) {
	for len(h.rest) > 0 {
		i := bytes.Index(h.rest, crlf)
		if i < 0 {
			i = len(h.rest)
		}
		line := h.rest[:i]
		h.rest = h.rest[min(i+2, len(h.rest)):]
		if n, v, found := bytes.Cut(line, []byte{':'}); found {
			return n, bytes.TrimLeft(v, " \t"), true
		}
	}
	return nil, nil, false
}

var crlf = []byte("\r\n")

func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if lower(b[i]) != lower(s[i]) {
			return false
		}
	}
	return true
}

// equalLower is equalFold for a name s of lowercase letters and '-', and
// b of header bytes (no control character but tab): setting bit 0x20 then
// lowers a letter and changes nothing else that could match, so one OR
// and compare per byte do.
func equalLower(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != s[i] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasToken reports whether a comma-separated field value lists token
// (case-insensitive), as net/http reads Connection.
func hasToken(v []byte, token string) bool {
	for len(v) > 0 {
		item := v
		if i := bytes.IndexByte(v, ','); i >= 0 {
			item, v = v[:i], v[i+1:]
		} else {
			v = nil
		}
		if equalLower(trimBlank(item), token) {
			return true
		}
	}
	return false
}
