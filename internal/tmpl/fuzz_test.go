package tmpl

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"", "/items/{{ id }}", "{{", "}}", "{{}}", `{{ "{{" }}`, "{{ env.HOST }}", `{{ env("X", "d") }}`,
		"{{ randInt(1, 10) }}", "{{ randString(8) }}", "{{ uuid() }}", `{{ pick("a", 'b', 3) }}`,
		"{{ timestamp() }}", "{{ vu }}-{{ iteration }}-{{ scenario }}", `{{ "a\"b" }}`, "{{ randInt(-5,", "{a}{{b}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tp, err := Compile(src, testScope())
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Compile(%q) error %T is not *Error", src, err)
			}
			if e.Offset < 0 || e.Offset > len(src) {
				t.Fatalf("Compile(%q) error offset %d outside the source", src, e.Offset)
			}
			return
		}
		if tp.String() != src {
			t.Fatalf("String = %q, want %q", tp.String(), src)
		}
		out := tp.Render(nil, testContext())
		if !strings.Contains(src, "{{") && string(out) != src {
			t.Fatalf("text without {{ rendered %q, want %q", out, src)
		}
		for _, e := range []Escape{QueryComponent, JSONString} {
			tp.Escaped(e).Render(nil, testContext())
		}
	})
}

func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"", "abc", "{{ id }}", "a b&c", "\xff\u2028\"\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit := Literal(s)
		if got := string(lit.Render(nil, nil)); got != s {
			t.Fatalf("Literal(%q) rendered %q", s, got)
		}
		if got := string(lit.Escaped(QueryComponent).Render(nil, nil)); got != url.QueryEscape(s) {
			t.Fatalf("QueryComponent(%q) = %q, want %q", s, got, url.QueryEscape(s))
		}
		if got, want := string(lit.Escaped(JSONString).Render(nil, nil)), stdJSON(t, s); got != want {
			t.Fatalf("JSONString(%q) = %q, want %q", s, got, want)
		}
		// Escaping a dynamic part in place must agree with escaping a constant.
		dyn := mustCompile(t, "{{ id }}")
		ctx := &Context{Vars: []string{s}}
		for _, e := range []Escape{QueryComponent, JSONString} {
			want, _ := lit.Escaped(e).Const()
			if got := string(dyn.Escaped(e).Render([]byte("prefix"), ctx)); got != "prefix"+want {
				t.Fatalf("dynamic escape %d of %q = %q, want %q", e, s, got, "prefix"+want)
			}
		}
	})
}
