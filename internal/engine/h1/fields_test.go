package h1

import (
	"bytes"
	"testing"
)

// TestValidValueWordAtATime: the eight-bytes-at-a-time test agrees with the
// byte-by-byte rule for every byte at every position of a word.
func TestValidValueWordAtATime(t *testing.T) {
	for c := range 256 {
		for pos := range 17 {
			b := bytes.Repeat([]byte{'a'}, 17)
			b[pos] = byte(c)
			want := validValueByte(byte(c))
			if got := validValue(b); got != want {
				t.Fatalf("byte %#x at %d: validValue = %v, want %v", c, pos, got, want)
			}
			b[(pos+9)%17] = 0x80 // a high byte nearby must not hide or fake anything
			if got := validValue(b); got != want {
				t.Fatalf("byte %#x at %d beside 0x80: validValue = %v, want %v", c, pos, got, want)
			}
		}
	}
}

// TestEqualLowerAgreesWithEqualFold: for the names and tokens the parser
// looks for, equalLower answers as equalFold for every byte a validated
// header name or value may hold, in every position.
func TestEqualLowerAgreesWithEqualFold(t *testing.T) {
	for _, s := range []string{"content-length", "transfer-encoding", "connection", "set-cookie", "location", "chunked", "close", "keep-alive"} {
		for i := range len(s) {
			for c := range 256 {
				if !validValueByte(byte(c)) && !validNameByte(byte(c)) {
					continue
				}
				b := []byte(s)
				b[i] = byte(c)
				if got, want := equalLower(b, s), equalFold(b, s); got != want {
					t.Fatalf("%q against %q: equalLower %v, equalFold %v", b, s, got, want)
				}
			}
		}
	}
}
