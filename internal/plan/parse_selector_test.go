package plan

import (
	"errors"
	"testing"
)

func TestParseSelectorMatches(t *testing.T) {
	labels := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name      string
		sel       string
		metric    string
		labels    map[string]string
		wantName  bool
		wantLabel bool
	}{
		{"bare name", "up", "up", nil, true, true},
		{"bare name, other metric", "up", "down", nil, false, true},
		{"name with colon", "job:rate5m", "job:rate5m", nil, true, true},
		{"equality", `m{uri="/apps/first-page"}`, "m", map[string]string{"uri": "/apps/first-page"}, true, true},
		{"equality fails", `m{uri="/a"}`, "m", map[string]string{"uri": "/b"}, true, false},
		{"not equal", `m{uri!="/a"}`, "m", map[string]string{"uri": "/b"}, true, true},
		{"regex is anchored", `m{uri=~"/a"}`, "m", map[string]string{"uri": "/ab"}, true, false},
		{"regex", `m{uri=~"/a.*"}`, "m", map[string]string{"uri": "/ab"}, true, true},
		{"negative regex", `m{uri!~"/a.*"}`, "m", map[string]string{"uri": "/ab"}, true, false},
		{"absent label is empty", `m{pool=""}`, "m", nil, true, true},
		{"name by regex", `{__name__=~"hikaricp_.*"}`, "hikaricp_connections_active", nil, true, true},
		{"name by regex, other metric", `{__name__=~"hikaricp_.*"}`, "jvm_threads", nil, false, true},
		{"spaces, trailing comma, single quotes", ` m { a = 'x' , b!~"y", } `, "m", map[string]string{"a": "x", "b": "z"}, true, true},
		{"escapes", `m{a="q\"\\"}`, "m", map[string]string{"a": `q"\`}, true, true},
		{"raw regex", "m{a=~`\\d+`}", "m", map[string]string{"a": "42"}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSelector(tt.sel)
			if err != nil {
				t.Fatalf("ParseSelector(%q): %v", tt.sel, err)
			}
			if s.Text != tt.sel {
				t.Errorf("Text %q, want the input", s.Text)
			}
			if got := s.MatchesName(tt.metric); got != tt.wantName {
				t.Errorf("MatchesName(%q) = %v, want %v", tt.metric, got, tt.wantName)
			}
			if got := s.MatchesLabels(labels(tt.labels)); got != tt.wantLabel {
				t.Errorf("MatchesLabels(%v) = %v, want %v", tt.labels, got, tt.wantLabel)
			}
		})
	}
}

func TestParseSelectorErrors(t *testing.T) {
	tests := []struct {
		name   string
		sel    string
		offset int
		msg    string
	}{
		{"empty", "", 0, "empty selector: name a metric, like my_queue_depth"},
		{"starts with a digit", "9up", 0, `unexpected '9': a selector starts with a metric name or {`},
		{"garbage after", "up x", 3, `unexpected 'x' after the selector`},
		{"no operator", "up{a}", 4, "expected =, !=, =~ or !~ after label a"},
		{"label starts with a digit", `up{1a="x"}`, 3, `expected a label name, got '1'`},
		{"missing value", "up{a=", 5, `missing the value: quote it, like "GET"`},
		{"unterminated", `up{a="x}`, 5, "unterminated quoted value"},
		{"bad escape", `up{a="\d"}`, 6, "unknown escape \\d (use \\\\, \\\", \\', \\n or \\t; or `raw` quotes for regexes)"},
		{"no separator", `up{a="x" b="y"}`, 9, `expected , or } after a matcher, got 'b'`},
		{"bad regex", `up{a=~"("}`, 6, "bad regex \"(\": missing closing ): `(`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSelector(tt.sel)
			var se *SelectorError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *SelectorError", err, err)
			}
			if se.Offset != tt.offset || se.Msg != tt.msg {
				t.Errorf("got offset %d %q, want %d %q", se.Offset, se.Msg, tt.offset, tt.msg)
			}
		})
	}
}

func TestSelectorHasLabel(t *testing.T) {
	s, err := ParseSelector(`h_bucket{le=~".*", __name__!="x"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !s.HasLabel("le") || s.HasLabel("quantile") || len(s.NameMatchers()) != 2 {
		t.Errorf("HasLabel(le) %v, HasLabel(quantile) %v, %d name matchers; want true, false, 2",
			s.HasLabel("le"), s.HasLabel("quantile"), len(s.NameMatchers()))
	}
}

// FuzzParseSelector checks that ParseSelector never panics, that an error
// points inside the text, and that what it accepts keeps its text.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"up", `m{a="b",c!~"d.*"}`, `{__name__=~"x"}`, "m{a=`\\d`}", `m{a="\"}`, "{", "m{a=~\"(\"}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			var se *SelectorError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParseSelector(%q): error %v, want a *SelectorError inside the text", s, err)
			}
			return
		}
		if sel.Text != s || len(sel.Matchers) == 0 {
			t.Fatalf("ParseSelector(%q) = %+v: want the text kept and at least one matcher", s, sel)
		}
		sel.MatchesName("m")
		sel.MatchesLabels(func(string) string { return "" })
	})
}
