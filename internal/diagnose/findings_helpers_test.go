package diagnose

import (
	"strings"
	"testing"
)

// findingsOf returns the findings of one kind.
func findingsOf(fs []Finding, kind string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// oneOrNone checks the findings of kind in fs, as the table tests of the
// trace and cache findings want them: none when prefix is "" (the case
// must stay silent), else exactly one whose title starts with prefix and
// ends with suffix. It returns that one, and false when none was wanted.
func oneOrNone(t *testing.T, fs []Finding, kind, prefix, suffix string) (Finding, bool) {
	t.Helper()
	got := findingsOf(fs, kind)
	if prefix == "" {
		if len(got) > 0 {
			t.Fatalf("fired: %s", title(got[0]))
		}
		return Finding{}, false
	}
	if len(got) != 1 {
		t.Fatalf("%d findings, want 1", len(got))
	}
	if s := title(got[0]); !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		t.Errorf("title %q", s)
	}
	return got[0], true
}

// figureWhat returns the finding's figure that says what it is.
func figureWhat(t *testing.T, f Finding, what string) Figure {
	t.Helper()
	for _, g := range f.Figures {
		if g.What == what {
			return g
		}
	}
	t.Fatalf("%s: no figure %q", f.Kind, what)
	return Figure{}
}
