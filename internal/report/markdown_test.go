package report

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestMdEscape(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "GET /products/{id}", "GET /products/{id}"},
		{"table pipe", "a|b", `a\|b`},
		{"markup", `<script>x</script>"><img src=x onerror=y>`, `&lt;script&gt;x&lt;/script&gt;"&gt;&lt;img src=x onerror=y&gt;`},
		{"link", "[click](javascript:alert(1))", `\[click\](javascript:alert(1))`},
		{"emphasis and code", "*a* _b_ `c` ~d~", "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~"},
		{"entity", "&amp;", "&amp;amp;"},
		{"newlines", "a\nb\r\nc", "a b  c"},
		{"backslash", `a\|b`, `a\\\|b`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mdEscape(c.in); got != c.want {
				t.Errorf("mdEscape(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestCIOutputsCarryHostileTextSafely renders a run whose names and
// messages hold markup: the Markdown has no raw tag and no extra table
// cell, and the JUnit XML stays well-formed with the text intact.
func TestCIOutputsCarryHostileTextSafely(t *testing.T) {
	const evil = `<script>x</script>"><img src=x>|]]></failure>`
	in := fixture(t)
	in.Run.Layout.Endpoints[0].Name = "GET /" + evil
	in.Run.Layout.Checks[0].Name = evil
	md := string(Markdown(in))
	if strings.Contains(md, "<script>") || strings.Contains(md, "<img") {
		t.Errorf("Markdown carries raw markup:\n%s", md)
	}
	cells := -1 // unescaped pipes of the table being read, -1 outside tables
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if cells >= 0 && n != cells {
			t.Errorf("table row with %d cell borders, want %d: %s", n, cells, line)
		}
		cells = n
	}
	b, err := JUnit(in)
	if err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(b, &parsed); err != nil {
		t.Fatalf("JUnit XML does not parse: %v\n%s", err, b)
	}
	if got := parsed.Suites[1].Cases[0].Name; !strings.HasPrefix(got, evil) {
		t.Errorf("check test case name %q, want it to start with %q", got, evil)
	}
}
