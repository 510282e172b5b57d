package tmpl

import (
	"slices"
	"testing"
)

// mustCompile compiles src with testScope or fails the test.
func mustCompile(t testing.TB, src string) *Template {
	t.Helper()
	tp, err := Compile(src, testScope())
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	return tp
}

func TestConst(t *testing.T) {
	tests := []struct {
		name      string
		tmpl      *Template
		want      string
		wantConst bool
	}{
		{"nil template", nil, "", true},
		{"empty literal", Literal(""), "", true},
		{"literal with braces", Literal("{{ id }}"), "{{ id }}", true},
		{"compiled text", mustCompile(t, "/a/b"), "/a/b", true},
		{"string and env fold into text", mustCompile(t, `/{{ "x" }}/{{ env.HOST }}/`), "/x/example.com/", true},
		{"variable", mustCompile(t, "/{{ id }}"), "", false},
		{"escaped constant", Literal("a b&c").Escaped(QueryComponent), "a+b%26c", true},
		{"concat of literals", Concat(Literal("a"), Literal("b"), nil, Literal("")), "ab", true},
		{"concat with variable", Concat(Literal("a"), mustCompile(t, "{{ id }}")), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.tmpl.Const()
			if got != tc.want || ok != tc.wantConst {
				t.Errorf("Const() = %q, %v, want %q, %v", got, ok, tc.want, tc.wantConst)
			}
		})
	}
}

func TestConcat(t *testing.T) {
	a := mustCompile(t, "/users/{{ id }}")
	b := mustCompile(t, "/x?q=")
	c := mustCompile(t, "{{ name }}").Escaped(QueryComponent)
	tests := []struct {
		name      string
		tmpl      *Template
		want      string
		wantSrc   string
		wantParts int
	}{
		{"flattens and merges literals", Concat(a, b, Literal("&z=1")), "/users/42/x?q=&z=1", "/users/{{ id }}/x?q=&z=1", 3},
		{"keeps escaped part whole", Concat(b, c), "/x?q=Ann+Lee", "/x?q={{ name }}", 2},
		{"nested concat", Concat(Concat(Literal("a"), Literal("b")), Literal("c")), "abc", "abc", 1},
		{"nothing", Concat(), "", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(tc.tmpl.Render(nil, testContext())); got != tc.want {
				t.Errorf("Render = %q, want %q", got, tc.want)
			}
			if tc.tmpl.String() != tc.wantSrc {
				t.Errorf("String = %q, want %q", tc.tmpl.String(), tc.wantSrc)
			}
			if len(tc.tmpl.parts) != tc.wantParts {
				t.Errorf("%d parts, want %d", len(tc.tmpl.parts), tc.wantParts)
			}
		})
	}
	// Merging must not write into the parts of the templates it was given.
	if got := string(a.Render(nil, testContext())); got != "/users/42" {
		t.Errorf("after Concat, a renders %q, want %q", got, "/users/42")
	}
}

func TestEscaped(t *testing.T) {
	ctx := testContext()
	ctx.Vars = []string{"a b&c=d/é", "say \"hi\"\n\\ \u2028 \x01"}
	tests := []struct {
		name string
		tmpl *Template
		want string
	}{
		{"query of variable", mustCompile(t, "{{ id }}").Escaped(QueryComponent), "a+b%26c%3Dd%2F%C3%A9"},
		{"json of variable", mustCompile(t, "{{ name }}").Escaped(JSONString), `say \"hi\"\n\\ \u2028 \u0001`},
		{"query of text and variable", mustCompile(t, "x y={{ id }}").Escaped(QueryComponent), "x+y%3Da+b%26c%3Dd%2F%C3%A9"},
		{"json then query", mustCompile(t, `"{{ name }}"`).Escaped(JSONString).Escaped(QueryComponent),
			"%5C%22say+%5C%22hi%5C%22%5Cn%5C%5C+%5Cu2028+%5Cu0001%5C%22"},
		{"raw is unchanged", mustCompile(t, "{{ id }}").Escaped(Raw), "a b&c=d/é"},
		{"unknown escape is unchanged", mustCompile(t, "{{ id }}").Escaped(Escape(99)), "a b&c=d/é"},
		{"json of constant", Literal("tab\there").Escaped(JSONString), `tab\there`},
		{"nothing to escape", mustCompile(t, "{{ iteration }}").Escaped(QueryComponent), "3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Render after a prefix to check that only the escaped part changes.
			got := string(tc.tmpl.Render([]byte("pre|"), ctx))
			if got != "pre|"+tc.want {
				t.Errorf("Render = %q, want %q", got, "pre|"+tc.want)
			}
		})
	}
}

func TestUsesVars(t *testing.T) {
	sc := &Scope{Vars: map[string]int{"a": 0, "b": 1, "c": 5}}
	compile := func(src string) *Template {
		tp, err := Compile(src, sc)
		if err != nil {
			t.Fatal(err)
		}
		return tp
	}
	tests := []struct {
		name string
		tmpl *Template
		want []int
	}{
		{"none", compile("{{ vu }} x"), nil},
		{"sorted without repeats", compile("{{ c }}{{ a }}{{ c }}"), []int{0, 5}},
		{"inside escaped and concat", Concat(compile("{{ b }}"), compile("{{ c }}").Escaped(JSONString)), []int{1, 5}},
		{"nil template", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.tmpl.UsesVars(); !slices.Equal(got, tc.want) {
				t.Errorf("UsesVars = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRenderEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		tmpl *Template
		ctx  *Context
		want string
	}{
		{"nil template appends nothing", nil, nil, ""},
		{"constant with nil context", Literal("x"), nil, "x"},
		{"slot beyond vars renders empty", mustCompile(t, "[{{ name }}]"), &Context{Vars: []string{"only"}}, "[]"},
		{"nil Rand uses the top-level source", mustCompile(t, "{{ randInt(4, 4) }}{{ pick(1, 1) }}"), &Context{}, "41"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(tc.tmpl.Render(nil, tc.ctx)); got != tc.want {
				t.Errorf("Render = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCompileUsesProcessEnvironmentByDefault(t *testing.T) {
	t.Setenv("LOADLENS_TMPL_TEST", "from-env")
	tests := []struct {
		name  string
		scope *Scope
	}{
		{"nil scope", nil},
		{"scope without Env", &Scope{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp, err := Compile("{{ env.LOADLENS_TMPL_TEST }}", tc.scope)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := tp.Const(); got != "from-env" {
				t.Errorf("Const = %q, want %q", got, "from-env")
			}
		})
	}
}
