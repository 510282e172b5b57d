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
