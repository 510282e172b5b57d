package openapi

import (
	"fmt"
	"strings"
	"testing"
)

// yamlCases are YAML specs' values and the JSON that go.yaml.in/yaml/v4's
// reader made of them, before the YAML was read with goccy/go-yaml: how
// plain scalars resolve (0x1F, 1e3, yes, 2001-12-14, past int64), tags,
// block scalars, anchors, aliases and << merges, duplicate keys, documents.
var yamlCases = []struct{ name, yaml, json string }{
	{"numbers as keys", "200: ok\n0x10: hex\n1.0: f\n~: n\n'201': q\n!!str 5: t", `{"200":"ok","0x10":"hex","1.0":"f","~":"n","201":"q","5":"t"}`},
	{"integers", "a: [1, 0x1F, 0o17, 017, 0b101, 1_000, +5, -5]", `{"a":[1,31,15,15,5,1000,5,-5]}`},
	{"large integers", "a: [9223372036854775807, 9223372036854775808, 18446744073709551615, 18446744073709551616, 123456789012345678901234567890]", `{"a":[9223372036854775807,"9223372036854775808","18446744073709551615",1.8446744073709552e+19,1.2345678901234568e+29]}`},
	{"floats", "a: [1.5, 1e3, 1., .5, +.5, -0, 0.1, 3.14159265358979323846, 1_000.5, 1e400]", `{"a":[1.5,1000,1,0.5,0.5,-0,0.1,3.141592653589793,1000.5,"1e400"]}`},
	{"not numbers", "a: [.inf, -.Inf, .NaN, NaN, 0x, 0x1p-2, 12:30:00, 2001-12-14, 2001-12-14t21:59:43.10-05:00]", `{"a":[".inf","-.Inf",".NaN","NaN","0x","0x1p-2","12:30:00","2001-12-14","2001-12-14t21:59:43.10-05:00"]}`},
	{"booleans and nulls", "a: [true, True, TRUE, tRue, yes, no, on, off, y, null, Null, NULL, ~, '', \"\"]\nb:", `{"a":[true,true,true,"tRue","yes","no","on","off","y",null,null,null,null,"",""],"b":null}`},
	{"quoted", "a: ['123', \"true\", 'it''s', \"esc \\t \\u00e9 \\x41 \\\\ \\\" \\n\", \"\\U0001F600\"]", `{"a":["123","true","it's","esc \t é A \\ \" \n","😀"]}`},
	{"tags", "a: [!!str 123, !!int '12', !!float 1, !!float .inf, !!int 1.5, !!bool 1, !!bool yes, !!null x, !foo bar]\ng: !<tag:yaml.org,2002:str> 5\nb: !!seq [1]\nc: !!map {b: 1}\nd: [!!seq [1]]\ne: !!map\n  f: 1", `{"a":["123",12,1,".inf","1.5",true,"yes",null,"bar"],"g":"5","b":[1],"c":{"b":1},"d":[[1]],"e":{"f":1}}`},
	{"block scalars", "a: |\n  line1\n  line2\nb: |-\n  line1\n  line2\nc: >\n  folded\n  text\n\n  para\nd: |+\n  keep\n\ne: >-\n  x\n   indented\n  y\n", `{"a":"line1\nline2\n","b":"line1\nline2","c":"folded text\npara\n","d":"keep\n\n","e":"x\n indented\ny"}`},
	{"plain multi-line", "a: plain\n  multi\n  line\nb: \"multi\n  line\"", `{"a":"plain multi line","b":"multi line"}`},
	{"anchors and aliases", "a: &x {b: 1}\nc: *x\nd: &l [1, 2]\ne: *l\n&k key: v\nf: *k", `{"a":{"b":1},"c":{"b":1},"d":[1,2],"e":[1,2],"key":"v","f":"key"}`},
	{"an anchor redefined", "a: &a 1\nb: *a\nc: &a 2\nd: *a", `{"a":1,"b":1,"c":2,"d":2}`},
	{"merge key first", "base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3", `{"base":{"x":1,"y":2},"d":{"x":1,"y":2,"y":3}}`},
	{"merge key last", "base: &b {x: 1, y: 2}\nd:\n  y: 3\n  <<: *b", `{"base":{"x":1,"y":2},"d":{"y":3,"x":1,"y":2}}`},
	{"merge of a list", "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3", `{"a":{"x":1},"b":{"y":2},"c":{"x":1,"y":2,"z":3}}`},
	{"merge inline and tagged", "c:\n  <<: {x: 1}\n  z: 3\nd:\n  !!merge <<: {y: 2}\ne:\n  '<<': {x: 1}", `{"c":{"x":1,"z":3},"d":{"y":2},"e":{"\u003c\u003c":{"x":1}}}`},
	{"duplicate keys kept", "a: 1\na: 2", `{"a":1,"a":2}`},
	{"first document only", "---\na: 1\n---\nb: 2", `{"a":1}`},
	{"empty", "", `null`},
	{"a scalar", "x", `"x"`},
	{"a list", "- a\n- {b: c}\n- [d]", `["a",{"b":"c"},["d"]]`},
	{"comments", "a: 'x' # c\n# c2\nb: x #c\nc: '#x'", `{"a":"x","b":"x","c":"#x"}`},
}

// TestToJSONWritesYAMLAsBefore: a YAML spec becomes the same JSON as it
// did with the YAML library it was read with before.
func TestToJSONWritesYAMLAsBefore(t *testing.T) {
	for _, c := range yamlCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := toJSON([]byte(c.yaml))
			if err != nil || string(got) != c.json {
				t.Errorf("%q became %s (%v), want %s", c.yaml, got, err, c.json)
			}
		})
	}
}

// chainedAliases is YAML of n anchors, each a list levels deep holding the
// one before: each level is shallow, the last one, expanded, is not.
func chainedAliases(n, levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 1\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "a%d: &a%d %s*a%d%s\n", i, i, strings.Repeat("[", levels), i-1, strings.Repeat("]", levels))
	}
	return b.String()
}

// TestToJSONRefusesBadYAML: an alias with no anchor before it, one inside
// its own anchor, aliases that nest past YAML's limit expanded and a
// syntax error are errors naming the line.
func TestToJSONRefusesBadYAML(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"a: *nope", `line 1: unknown anchor "nope" referenced`},
		{"a: *b\nc: &b 1", `line 1: unknown anchor "b" referenced`},
		{"a: &a [*a]", `line 1: unknown anchor "a" referenced`},
		{"a: [1, 2", "line 1, column 4: sequence end token ']' not found"},
		{chainedAliases(30, 400), "line 2: the YAML nests deeper than 10,000 levels, its aliases expanded"},
		{"a:\n\tb: 1", "line 2, column 1: found character '\t' that cannot start any token"},
	}
	for _, c := range cases {
		if _, err := toJSON([]byte(c.yaml)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.60q: error %v, want %q", c.yaml, err, c.want)
		}
	}
}
