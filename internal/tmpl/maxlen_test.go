package tmpl

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestMaxLen(t *testing.T) {
	vars := func(n int64) Bounds { return Bounds{Var: func(int) int64 { return n }, Scenario: 7} }
	tests := []struct {
		name string
		tmpl *Template
		b    Bounds
		want int64
	}{
		{"nil", nil, Bounds{}, 0},
		{"literal", Literal("hello"), Bounds{}, 5},
		{"randString", mustCompile(t, "a{{ randString(10) }}b"), Bounds{}, 12},
		{"randInt negative end is longer", mustCompile(t, "{{ randInt(-1000, 5) }}"), Bounds{}, 5},
		{"uuid and pick", mustCompile(t, `{{ uuid() }}{{ pick("a", "bcd") }}`), Bounds{}, 39},
		{"variables", mustCompile(t, "{{ id }}/{{ name }}"), vars(100), 201},
		{"json escaping grows six times", mustCompile(t, "{{ name }}").Escaped(JSONString), vars(10), 60},
		{"query escaping grows three times", mustCompile(t, "{{ name }}").Escaped(QueryComponent), vars(10), 30},
		{"generated text needs no escaping", mustCompile(t, "{{ randString(8) }}{{ uuid() }}{{ randInt(-5, 5) }}").Escaped(JSONString), Bounds{}, 8 + 36 + 2},
		{"text and choices count escaped", mustCompile(t, `"{{ pick("a", "<\\>") }}{{ id }}`).Escaped(JSONString), vars(1), 2 + 4 + 6},
		{"4,000 calls of 64 KiB", mustCompile(t, strings.Repeat("{{ randString(65536) }}", 4000)), Bounds{}, 4000 * 65536},
		{"saturates instead of overflowing", mustCompile(t, "{{ id }}{{ id }}"), vars(math.MaxInt64 - 1), math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tmpl.MaxLen(tt.b); got != tt.want {
				t.Errorf("MaxLen = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestMaxLenBoundsRender renders templates with the longest values allowed
// and checks that no output is longer than MaxLen says.
func TestMaxLenBoundsRender(t *testing.T) {
	long := strings.Repeat("\x01\u2028\"", 10) // each byte escapes to the most
	b := Bounds{Var: func(int) int64 { return int64(len(long)) }}
	r := rand.New(rand.NewPCG(1, 2))
	for _, src := range []string{
		"{{ randInt(-9223372036854775808, 9223372036854775807) }}{{ uuid() }}",
		"{{ id }}{{ name }}{{ randString(33) }}{{ timestamp() }}",
		"\"quoted\" {{ pick(\"<a b>\", \"\u2028\\\\\") }} {{ randInt(-3, 3) }}",
	} {
		for _, tp := range []*Template{mustCompile(t, src), mustCompile(t, src).Escaped(JSONString), mustCompile(t, src).Escaped(QueryComponent)} {
			bound := tp.MaxLen(b)
			for range 200 {
				out := tp.Render(nil, &Context{Vars: []string{long, long}, Rand: r})
				if int64(len(out)) > bound {
					t.Fatalf("%q rendered %d bytes, more than MaxLen %d", src, len(out), bound)
				}
			}
		}
	}
}
