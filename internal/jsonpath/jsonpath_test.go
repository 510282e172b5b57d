package jsonpath

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const testDoc = `{
	"a": {"b": [10, {"c": "x"}, [true, null]], "dash-key": 1.50, "café": "au lait"},
	"list": [1, 2, 3],
	"weird key": {"it's": "q", "say \"hi\"": "dq"},
	"n": null,
	"0": "zero"
}`

// decode decodes s the way callers decode response bodies.
func decode(t testing.TB, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestLookup(t *testing.T) {
	doc := decode(t, testDoc)
	tests := []struct {
		name   string
		path   string
		want   string // Format of the found value
		wantOK bool
	}{
		{"root", "$", Format(doc), true},
		{"member", "$.a.b[0]", "10", true},
		{"without dollar", "a.b[0]", "10", true},
		{"dollar then bracket", "$['a']['b'][1].c", "x", true},
		{"bare name then bracket", `a["b"][1]["c"]`, "x", true},
		{"bracket first without dollar", `["list"][2]`, "3", true},
		{"negative index", "$.list[-1]", "3", true},
		{"negative index to first", "$.list[-3]", "1", true},
		{"nested arrays", "$.a.b[2][0]", "true", true},
		{"null value is found", "$.a.b[2][1]", "null", true},
		{"null member is found", "$.n", "null", true},
		{"number keeps its text", "$.a.dash-key", "1.50", true},
		{"non-ASCII name", "$.a.café", "au lait", true},
		{"digit name is a member", "$.0", "zero", true},
		{"spaces inside brackets", "$[ 'weird key' ][ \"it's\" ]", "q", true},
		{"escaped quotes in name", `$['weird key']['say \"hi\"']`, "dq", true},
		{"escaped single quote", `$['weird key']['it\'s']`, "q", true},
		{"object as compact JSON", "$.a.b[1]", `{"c":"x"}`, true},
		{"array as compact JSON", "$.a.b[2]", `[true,null]`, true},
		{"missing member", "$.a.nope", "", false},
		{"index past the end", "$.list[3]", "", false},
		{"negative index past the start", "$.list[-4]", "", false},
		{"index into object", "$.a[0]", "", false},
		{"name into array", "$.list.x", "", false},
		{"name into scalar", "$.a.b[0].x", "", false},
		{"name into null", "$.n.x", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.path)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.path, err)
			}
			v, ok := p.Lookup(doc)
			if ok != tc.wantOK {
				t.Fatalf("Lookup found %v, want %v (value %v)", ok, tc.wantOK, v)
			}
			if ok && Format(v) != tc.want {
				t.Errorf("Lookup = %s, want %s", Format(v), tc.want)
			}
			if p.String() != tc.path {
				t.Errorf("String = %q, want %q", p.String(), tc.path)
			}
			if p.IsZero() {
				t.Error("parsed path IsZero")
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		wantOff int
		wantMsg string
	}{
		{"empty", "", 0, "empty path: expected $, a name or ["},
		{"dollar then name", "$a", 1, `expected . or [, found 'a'`},
		{"trailing dot", "$.a.", 4, `expected a name after . (use ['...'] for other names), found end of path`},
		{"double dot", "$..a", 2, `expected a name after . (use ['...'] for other names), found '.'`},
		{"space in name", "$.a b", 3, `expected . or [, found ' '`},
		{"leading symbol", "*", 0, `expected . or [, found '*'`},
		{"unclosed bracket", "$[0", 3, "expected ] to close the [ at offset 1, found end of path"},
		{"empty bracket", "$[]", 2, "expected a quoted name or an index after [, found ']'"},
		{"bracket at end", "$.a[", 4, "expected a quoted name or an index after [, found end of path"},
		{"bare word in bracket", "$[name]", 2, "expected a quoted name or an index after [, found 'n'"},
		{"wildcard", "$.a[*]", 4, "expected a quoted name or an index after [, found '*'"},
		{"fractional index", "$[1.5]", 3, "expected ] to close the [ at offset 1, found '.'"},
		{"lone minus", "$[-]", 3, "expected digits after - in index, found ']'"},
		{"huge index", "$[99999999999999999999]", 2, "index 99999999999999999999 is out of range"},
		{"unterminated quote", "$['a", 2, "unterminated quoted name: expected a closing '"},
		{"backslash at end", `$["a\`, 2, `unterminated quoted name: expected a closing "`},
		{"unknown escape", `$['a\n']`, 4, `unknown escape in quoted name: expected \\, \' or \"`},
		{"quote without bracket close", "$['a'.b", 5, "expected ] to close the [ at offset 1, found '.'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.path)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", tc.path, p.steps)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if e.Offset != tc.wantOff || e.Msg != tc.wantMsg {
				t.Errorf("error at %d %q, want at %d %q", e.Offset, e.Msg, tc.wantOff, tc.wantMsg)
			}
			if !strings.Contains(err.Error(), "offset") {
				t.Errorf("Error() = %q does not say the offset", err.Error())
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"string as is", `a "b" <c>`, `a "b" <c>`},
		{"number text", json.Number("1.50e3"), "1.50e3"},
		{"true", true, "true"},
		{"false", false, "false"},
		{"nil", nil, "null"},
		{"float64", 0.5, "0.5"},
		{"object sorted compact without HTML escapes", map[string]any{"b": json.Number("2"), "a": "<&>"}, `{"a":"<&>","b":2}`},
		{"array", []any{"x", nil, json.Number("3")}, `["x",null,3]`},
		{"empty object", map[string]any{}, `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Format(tc.v)
			if got != tc.want {
				t.Errorf("Format = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFormatFallsBackToFmt(t *testing.T) {
	// Not a decoded document: a function cannot be JSON-encoded.
	if got := Format(map[string]any{"f": func() {}}); !strings.HasPrefix(got, "map[f:") {
		t.Errorf("Format = %q, want fmt's map[f:...]", got)
	}
}

func TestZeroAndMustParse(t *testing.T) {
	var zero Path
	if !zero.IsZero() || zero.String() != "" {
		t.Errorf("zero Path: IsZero %v, String %q", zero.IsZero(), zero.String())
	}
	if v, ok := zero.Lookup("doc"); !ok || v != "doc" {
		t.Errorf("zero Path Lookup = %v, %v, want the document", v, ok)
	}
	if p := MustParse("$.a"); p.String() != "$.a" {
		t.Errorf("MustParse String = %q", p.String())
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParse of a bad path did not panic")
		}
	}()
	MustParse("$[")
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"$", "$.a.b[0]", "a.b[-1]", `$['x']["y"]`, "$[", `$['a\'b']`, "$..", "[0][1]"} {
		f.Add(s)
	}
	doc := decode(f, testDoc)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("Parse(%q) error %v: not an *Error inside the path", s, err)
			}
			return
		}
		if p.String() != s || p.IsZero() {
			t.Fatalf("Parse(%q): String %q, IsZero %v", s, p.String(), p.IsZero())
		}
		p.Lookup(doc)
	})
}
