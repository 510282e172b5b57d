package tmpl

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// draws bounds the loops that sample random parts.
const draws = 2000

func TestRandomParts(t *testing.T) {
	uuidRE := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	tests := []struct {
		name  string
		src   string
		valid func(string) bool
		// seen, when set, must hold every value after the draws.
		seen []string
	}{
		{"randInt inclusive bounds", "{{ randInt(-1, 2) }}", func(s string) bool {
			n, err := strconv.Atoi(s)
			return err == nil && -1 <= n && n <= 2
		}, []string{"-1", "0", "1", "2"}},
		{"randInt full range", "{{ randInt(-9223372036854775808, 9223372036854775807) }}", func(s string) bool {
			_, err := strconv.ParseInt(s, 10, 64)
			return err == nil
		}, nil},
		{"randString length and alphabet", "{{ randString(23) }}", regexp.MustCompile(`^[A-Za-z0-9]{23}$`).MatchString, nil},
		{"randString shorter than one draw", "{{ randString(1) }}", regexp.MustCompile(`^[A-Za-z0-9]$`).MatchString, nil},
		{"uuid v4", "{{ uuid() }}", uuidRE.MatchString, nil},
		{"pick", `{{ pick("a", 'b', 3) }}`, func(s string) bool { return s == "a" || s == "b" || s == "3" }, []string{"a", "b", "3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp := mustCompile(t, tc.src)
			ctx := testContext()
			seen := map[string]bool{}
			for range draws {
				got := string(tp.Render(nil, ctx))
				if !tc.valid(got) {
					t.Fatalf("Render = %q, not valid", got)
				}
				seen[got] = true
			}
			for _, want := range tc.seen {
				if !seen[want] {
					t.Errorf("%q never rendered in %d draws", want, draws)
				}
			}
		})
	}
}

func TestRandomPartsFollowContextRand(t *testing.T) {
	tp := mustCompile(t, "{{ randInt(0, 1000000) }} {{ randString(30) }} {{ uuid() }} {{ pick(1,2,3,4,5,6,7,8,9) }}")
	render := func(seed uint64) string {
		return string(tp.Render(nil, &Context{Rand: rand.New(rand.NewPCG(seed, 0))}))
	}
	if a, b := render(1), render(1); a != b {
		t.Errorf("same seed rendered %q and %q", a, b)
	}
	if a, b := render(1), render(2); a == b {
		t.Errorf("different seeds both rendered %q", a)
	}
}

func TestTimestamp(t *testing.T) {
	tp := mustCompile(t, "{{ timestamp() }}")
	before := time.Now().UnixMilli()
	got, err := strconv.ParseInt(string(tp.Render(nil, testContext())), 10, 64)
	after := time.Now().UnixMilli()
	if err != nil || got < before || got > after {
		t.Errorf("timestamp %d (%v), want within [%d, %d]", got, err, before, after)
	}
}

// stdJSON is encoding/json's escaping of s, without quotes or HTML escapes.
func stdJSON(t testing.TB, s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	out := strings.TrimSuffix(buf.String(), "\n")
	return out[1 : len(out)-1]
}

func TestEscapesMatchStandardLibrary(t *testing.T) {
	inputs := []struct {
		name string
		s    string
	}{
		{"empty", ""},
		{"plain", "abcXYZ019-_.~"},
		{"only spaces to escape", "a b  c"},
		{"reserved", "!*'();:@&=+$,/?#[]% <>\"\\"},
		{"control", "\x00\x01\b\f\n\r\t\x1f\x7f"},
		{"utf-8", "héllo wörld ✓ 😀"},
		{"line separators", "a\u2028b\u2029c"},
		{"invalid utf-8", "a\xffb\xe2\x82c\xc0"},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			lit := Literal(in.s)
			if got := string(lit.Escaped(QueryComponent).Render(nil, nil)); got != url.QueryEscape(in.s) {
				t.Errorf("QueryComponent = %q, want %q", got, url.QueryEscape(in.s))
			}
			if got, want := string(lit.Escaped(JSONString).Render(nil, nil)), stdJSON(t, in.s); got != want {
				t.Errorf("JSONString = %q, want %q", got, want)
			}
			// The in-place escaper of dynamic parts must agree with the constant one.
			dyn := mustCompile(t, "{{ id }}")
			ctx := &Context{Vars: []string{in.s}}
			for _, e := range []Escape{QueryComponent, JSONString} {
				want, _ := lit.Escaped(e).Const()
				if got := string(dyn.Escaped(e).Render([]byte("p"), ctx)); got != "p"+want {
					t.Errorf("dynamic escape %d = %q, want %q", e, got, "p"+want)
				}
			}
		})
	}
}

// allocTemplate has a variable, randInt, an escaped part and the other
// dynamic parts a request may use.
func allocTemplate(t testing.TB) *Template {
	path := mustCompile(t, "/users/{{ id }}/items?n={{ randInt(1, 1000) }}&vu={{ vu }}&q=")
	query := mustCompile(t, "{{ name }} & {{ pick('x y', 'z') }}").Escaped(QueryComponent)
	rest := mustCompile(t, "&r={{ randString(12) }}&u={{ uuid() }}&t={{ timestamp() }}&s={{ scenario }}-{{ iteration }}")
	body := mustCompile(t, `{{ name }} "quoted"`).Escaped(JSONString)
	return Concat(path, query, rest, Literal("#"), body)
}

func TestRenderDoesNotAllocate(t *testing.T) {
	tp := allocTemplate(t)
	ctx := testContext()
	dst := make([]byte, 0, 1024)
	allocs := testing.AllocsPerRun(100, func() {
		dst = tp.Render(dst[:0], ctx)
	})
	if allocs != 0 {
		t.Errorf("Render allocated %v times per run, want 0", allocs)
	}
	if !strings.HasPrefix(string(dst), "/users/42/items?n=") {
		t.Errorf("Render = %q, want the path prefix", dst)
	}
}

func BenchmarkRender(b *testing.B) {
	tp := Concat(
		mustCompile(b, "/users/{{ id }}/items?n={{ randInt(1, 1000) }}&q="),
		mustCompile(b, "{{ name }} & more").Escaped(QueryComponent),
	)
	ctx := testContext()
	dst := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		dst = tp.Render(dst[:0], ctx)
	}
	if allocs := testing.AllocsPerRun(10, func() { dst = tp.Render(dst[:0], ctx) }); allocs != 0 {
		b.Fatalf("Render allocated %v times per run, want 0", allocs)
	}
}

func BenchmarkRenderAllParts(b *testing.B) {
	tp := allocTemplate(b)
	ctx := testContext()
	dst := make([]byte, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		dst = tp.Render(dst[:0], ctx)
	}
	b.ReportMetric(float64(len(dst)), "output-bytes")
}
