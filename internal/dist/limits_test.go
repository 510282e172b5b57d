package dist

import "testing"

// TestTooBigSaysBothSizesInOneUnit: a bound computed from the plan read
// "more than the 3703728 B" beside "a second of 43.0 MB" (trial B39).
func TestTooBigSaysBothSizesInOneUnit(t *testing.T) {
	for _, c := range []struct {
		e    oversizeError
		want string
	}{
		{oversizeError{kind: kindSecond, n: 43_000_000, limit: 3_703_728}, "sent a second of 43.0 MB, more than the 3.7 MB one may be"},
		{oversizeError{kind: kindNotice, n: 262_144_000, limit: 25 << 10}, "sent a notice of 262.1 MB, more than the 25 KiB one may be"},
		{oversizeError{kind: kindNotice, n: 2_000, limit: 1_000}, "sent a notice of 2.0 kB, more than the 1000 B one may be"},
	} {
		if got := c.e.tooBig(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
