package tmpl

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestInJSON: a variable inserted into JSON text cannot close its string
// and add keys; a legitimate value with quotes arrives as written; outside
// a string a number stays a number and anything else becomes a string.
func TestInJSON(t *testing.T) {
	const inject = `","admin":true,"x":"`
	for _, tc := range []struct {
		name, src, value, want string
	}{
		{"an injection attempt in a string", `{"login": "{{ v }}"}`, inject, `{"login": "\",\"admin\":true,\"x\":\""}`},
		{"a value with quotes in a string", `{"title": "{{ v }}"}`, `say "hi" \ bye`, `{"title": "say \"hi\" \\ bye"}`},
		{"controls in a string", `{"a": "{{ v }}"}`, "x\ny\x00", `{"a": "x\ny\u0000"}`},
		{"a number outside a string", `{"id": {{ v }}}`, "42", `{"id": 42}`},
		{"a negative decimal outside a string", `[{{ v }}]`, "-1.5e3", `[-1.5e3]`},
		{"true outside a string", `{"ok": {{ v }}}`, "true", `{"ok": true}`},
		{"an injection outside a string", `{"id": {{ v }}}`, `1,"admin":true`, `{"id": "1,\"admin\":true"}`},
		{"not quite a number", `{"id": {{ v }}}`, "01", `{"id": "01"}`},
		{"a whole JSON object outside a string", `{"echo": {{ v }}}`, `{"a": [1, "}"]}`, `{"echo": {"a": [1, "}"]}}`},
		{"an unclosed object outside a string", `{"echo": {{ v }}}`, `{"a": 1, "admin": true`, `{"echo": "{\"a\": 1, \"admin\": true"}`},
		{"an empty value outside a string", `{"id": {{ v }}}`, "", `{"id": ""}`},
		{"after an escaped quote, still in the string", `{"a": "\"{{ v }}"}`, `"`, `{"a": "\"\""}`},
		{"a key's string", `{"{{ v }}": 1}`, `a":2,"b`, `{"a\":2,\"b": 1}`},
		{"generated values as written", `{"n": {{ randInt(1, 9) }}, "u": "{{ v }}"}`, "x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Compile(tc.src, &Scope{Vars: map[string]int{"v": 0}})
			if err != nil {
				t.Fatal(err)
			}
			tpl := InJSON(src)
			got := string(tpl.Render(nil, &Context{Vars: []string{tc.value}, Rand: rand.New(rand.NewPCG(1, 2))}))
			if tc.want != "" && got != tc.want {
				t.Errorf("rendered %s, want %s", got, tc.want)
			}
			var v any
			if err := json.Unmarshal([]byte(got), &v); err != nil {
				t.Errorf("rendered %s, not JSON: %v", got, err)
			}
			if m, ok := v.(map[string]any); ok && m["admin"] != nil {
				t.Errorf("the value added a key: %s", got)
			}
			if tpl.String() != tc.src {
				t.Errorf("String() = %q, want the source", tpl.String())
			}
			if n := tpl.MaxLen(Bounds{Var: func(int) int64 { return int64(len(tc.value)) }}); int64(len(got)) > n {
				t.Errorf("rendered %d bytes, MaxLen says at most %d", len(got), n)
			}
		})
	}
}
