package units

import "testing"

// TestEscape: every character a terminal would act on, and every byte that
// is not UTF-8, is shown as an escape; other text is left as it is.
func TestEscape(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "500 Internal Server Error", "500 Internal Server Error"},
		{"non-ASCII text", "503 Überlastet — 服务", "503 Überlastet — 服务"},
		{"backslash kept", `C:\tmp`, `C:\tmp`},
		{"ESC clear screen", "500 \x1b[2J", `500 \x1b[2J`},
		{"OSC set title, BEL", "\x1b]0;pwned\x07", `\x1b]0;pwned\a`},
		{"OSC ended by ST", "\x1b]0;pwned\x1b\\", `\x1b]0;pwned\x1b\`},
		{"CR rewrites the line", "ok\rFAKE", `ok\rFAKE`},
		{"LF", "a\nb", `a\nb`},
		{"tab", "a\tb", `a\tb`},
		{"backspace", "abc\b\b", `abc\b\b`},
		{"NUL", "a\x00b", `a\x00b`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 CSI as a rune", "a\u009b2Jb", `a\u009b2Jb`},
		{"C1 NEL", "a\u0085b", `a\u0085b`},
		{"raw C1 byte is not UTF-8", "a\x9b2J", `a\x9b2J`},
		{"invalid UTF-8", "a\xff\xfeb", `a\xff\xfeb`},
		{"cut rune", "a\xe2\x80", `a\xe2\x80`},
		{"bidi override", "abc\u202edcba", `abc\u202edcba`},
		{"bidi marks", "a\u200fb\u200ec\u061cd", `a\u200fb\u200ec\u061cd`},
		{"empty", "", ""},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("%s: Escape(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestEscapeLeavesCleanTextUnallocated: the common case costs nothing.
func TestEscapeLeavesCleanTextUnallocated(t *testing.T) {
	s := "503 Service Unavailable: upstream timed out"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Fatalf("%v allocations for clean text", n)
	}
}
