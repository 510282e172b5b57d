package units

import "testing"

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		width      int
		want       string
	}{
		{"fits", "a short line", 20, "  a short line\n"},
		{"hanging indent", "one two three four", 12, "  one two\n    three\n    four\n"},
		{"long word stays whole", "a averyveryverylongword b", 10, "  a\n    averyveryverylongword\n    b\n"},
		{"runes not bytes", "ééé ééé ééé", 11, "  ééé ééé\n    ééé\n"},
		{"empty", "", 10, "  \n"},
		{"kept together", "one 300.0" + Keep + "kB", 12, "  one\n    300.0 kB\n"},
	} {
		if got := Wrap(tc.text, tc.width, "  ", "    "); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMiddle(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"GET /a", 10, "GET /a"},
		{"GET /a", 6, "GET /a"},
		{"GET /api/v1/orgs/{id}/deployments", 20, "GET /api/…eployments"},
		{"ééééééééé", 5, "éé…éé"},
		{"abc", 1, "…"},
		{"abc", 2, "…c"},
	} {
		got := Middle(tc.s, tc.width)
		if got != tc.want {
			t.Errorf("Middle(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
		if n := len([]rune(got)); n > max(tc.width, 1) {
			t.Errorf("Middle(%q, %d) is %d runes", tc.s, tc.width, n)
		}
	}
}
