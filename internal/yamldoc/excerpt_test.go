package yamldoc

import "testing"

// TestExcerpt: text read from a file is quoted short and printable.
func TestExcerpt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"user_id", "user_id"},
		{"", ""},
		{"12345678901234567890", "12345678901234567890"},
		{"root:*:20228:0:99999:7:::", "root:*:20228:0:99999…"},
		{"a\x1b[2Jb\x00c\u202e", "a?[2Jb?c?"},
		{"ééééééééééééééééééééé", "éééééééééééééééééééé…"},
	} {
		if got := Excerpt(tc.in); got != tc.want {
			t.Errorf("Excerpt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
