package tmpl

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// testScope has two variables and a fixed environment.
func testScope() *Scope {
	return &Scope{
		Vars: map[string]int{"id": 0, "name": 1},
		Env: func(k string) (string, bool) {
			v, ok := map[string]string{"HOST": "example.com", "EMPTY": ""}[k]
			return v, ok
		},
	}
}

// testContext matches testScope's variables.
func testContext() *Context {
	return &Context{
		Vars:      []string{"42", "Ann Lee"},
		VU:        7,
		Iteration: 3,
		Scenario:  "browse",
		Rand:      rand.New(rand.NewPCG(1, 2)),
	}
}

func TestCompileRendersDeterministicParts(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"empty", "", ""},
		{"plain text", "/items", "/items"},
		{"variable", "/items/{{id}}", "/items/42"},
		{"variable with spaces", "/items/{{  id  }}/x", "/items/42/x"},
		{"two variables", "{{ id }}-{{ name }}", "42-Ann Lee"},
		{"built-ins", "{{ vu }}/{{ iteration }}/{{ scenario }}", "7/3/browse"},
		{"env dot", "https://{{ env.HOST }}/", "https://example.com/"},
		{"env dot empty value is set", "[{{env.EMPTY}}]", "[]"},
		{"env call", `{{ env("HOST") }}`, "example.com"},
		{"env call default unused", `{{ env("HOST", "x") }}`, "example.com"},
		{"env call default used", `{{ env("NOPE", "fallback") }}`, "fallback"},
		{"double-quoted literal braces", `{{ "{{" }} id }}`, "{{ id }}"},
		{"single-quoted literal", `{{ 'a"b' }}`, `a"b`},
		{"string escapes", `{{ "a\"b\\c\n\t\r\'" }}`, "a\"b\\c\n\t\r'"},
		{"string holding closing braces", `{{ "}}" }}`, "}}"},
		{"lone closing braces are literal", "a }} b", "a }} b"},
		{"single brace is literal", "{a}", "{a}"},
		{"pick of one", `{{ pick("only") }}`, "only"},
		{"pick of one integer", `{{ pick(007) }}`, "007"},
		{"randInt of equal bounds", "{{ randInt(5, 5) }}", "5"},
		{"randInt negative equal bounds", "{{ randInt(-3,-3) }}", "-3"},
		{"newlines inside braces", "{{\n id\n}}", "42"},
		{"space before call parenthesis", `{{ pick ("x") }}`, "x"},
		{"utf-8 text", "héllo {{ name }} ✓", "héllo Ann Lee ✓"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp, err := Compile(tc.src, testScope())
			if err != nil {
				t.Fatalf("Compile(%q): %v", tc.src, err)
			}
			if got := string(tp.Render(nil, testContext())); got != tc.want {
				t.Errorf("Render = %q, want %q", got, tc.want)
			}
			if tp.String() != tc.src {
				t.Errorf("String = %q, want %q", tp.String(), tc.src)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		scope   *Scope
		wantOff int
		wantMsg string
	}{
		{"unterminated at end", "abc {{", nil, 4, "unterminated {{: no closing }}"},
		{"unterminated after name", "x{{ id ", testScope(), 1, "unterminated {{: no closing }}"},
		{"unterminated in arguments", "{{ randInt(1,", nil, 0, "unterminated {{: no closing }}"},
		{"unterminated after argument", "{{ randInt(1", nil, 0, "unterminated {{: no closing }}"},
		{"unterminated after open paren", "{{ uuid(", nil, 0, "unterminated {{: no closing }}"},
		{"unterminated after an unknown name", "http://h/{{ user ", testScope(), 9, "unterminated {{: no closing }}"},
		{"unterminated after an unknown name, no variables", "a {{ user", nil, 2, "unterminated {{: no closing }}"},
		{"unterminated after a bad call", "{{ nosuch(1", nil, 0, "unterminated {{: no closing }}"},
		{"empty action", "a{{ }}", nil, 4, "empty {{ }}: expected a variable, a function call or a quoted string"},
		{"two names", "{{ id name }}", testScope(), 6, "unexpected 'n': expected }} to close the {{ at offset 0"},
		{"single closing brace", "{{ id }", testScope(), 6, "unexpected '}': expected }} to close the {{ at offset 0"},
		{"number expression", "{{ 5 }}", nil, 3, "unexpected '5': expected a variable, a function call or a quoted string"},
		{"symbol expression", "{{ +x }}", nil, 3, "unexpected '+': expected a variable, a function call or a quoted string"},
		{"dotted variable", "{{ id.x }}", testScope(), 5, "unexpected . after id: only env.NAME has a dot"},
		{"env dot without name", "{{ env. }}", nil, 7, "expected an environment variable name after env."},
		{"env dot digit name", "{{ env.1 }}", nil, 7, "expected an environment variable name after env."},
		{"unknown variable", "/{{ nope }}", testScope(), 4, `unknown variable "nope" (known: id, name)`},
		{"unknown variable without scope", "{{ nope }}", nil, 3, `unknown variable "nope" (no variables are defined)`},
		{"unknown variable empty scope", "{{ nope }}", &Scope{}, 3, `unknown variable "nope" (no variables are defined)`},
		{"env dot unset", "{{ env.NOPE }}", testScope(), 3, `environment variable NOPE is not set (use env("NOPE", "default") for a default)`},
		{"env call unset", `{{ env("NOPE") }}`, testScope(), 7, `environment variable NOPE is not set (use env("NOPE", "default") for a default)`},
		{"unterminated string", `{{ "abc }}`, nil, 3, `unterminated string: missing closing "`},
		{"unterminated single-quoted string", `{{ pick('a) }}`, nil, 8, `unterminated string: missing closing '`},
		{"string ending in backslash", `{{ "abc\`, nil, 3, `unterminated string: missing closing "`},
		{"unknown escape", `{{ "a\q" }}`, nil, 5, `unknown escape \q in string (known: \\ \" \' \n \r \t)`},
		{"unknown function", "{{ foo() }}", nil, 3, "unknown function foo (known: env, pick, randInt, randString, timestamp, uuid)"},
		{"missing comma", "{{ randInt(1 2) }}", nil, 13, "unexpected '2' in arguments: expected , or )"},
		{"name argument", "{{ randInt(a, 2) }}", nil, 11, "unexpected 'a': expected a quoted string or an integer argument"},
		{"empty argument", "{{ pick(,) }}", nil, 8, "unexpected ',': expected a quoted string or an integer argument"},
		{"trailing comma", `{{ pick("a",) }}`, nil, 12, "unexpected ')': expected a quoted string or an integer argument"},
		{"lone minus", "{{ randInt(-, 2) }}", nil, 11, "unexpected '-': expected a quoted string or an integer argument"},
		{"integer overflow", "{{ randInt(1, 99999999999999999999) }}", nil, 14, "integer 99999999999999999999 is out of range"},
		{"randInt one argument", "{{ randInt(1) }}", nil, 3, "randInt(min, max) takes 2 arguments, got 1"},
		{"randInt three arguments", "{{ randInt(1, 2, 3) }}", nil, 3, "randInt(min, max) takes 2 arguments, got 3"},
		{"randInt string argument", `{{ randInt(1, "9") }}`, nil, 14, `randInt: argument 2 must be an integer, got the string "9"`},
		{"randInt min above max", "{{ randInt(10, 2) }}", nil, 11, "randInt: min 10 is greater than max 2"},
		{"randString no argument", "{{ randString() }}", nil, 3, "randString(n) takes 1 argument, got 0"},
		{"randString string argument", `{{ randString("5") }}`, nil, 14, `randString: argument 1 must be an integer, got the string "5"`},
		{"randString zero", "{{ randString(0) }}", nil, 14, "randString: length 0 is not between 1 and 65536"},
		{"randString too long", "{{ randString(65537) }}", nil, 14, "randString: length 65537 is not between 1 and 65536"},
		{"uuid with argument", "{{ uuid(1) }}", nil, 3, "uuid() takes 0 arguments, got 1"},
		{"timestamp with argument", `{{ timestamp("ms") }}`, nil, 3, "timestamp() takes 0 arguments, got 1"},
		{"pick without arguments", "{{ pick() }}", nil, 3, "pick(...) takes at least 1 argument, got 0"},
		{"env without arguments", "{{ env() }}", nil, 3, "env(name) or env(name, default) takes 1 or 2 arguments, got 0"},
		{"env three arguments", `{{ env("a", "b", "c") }}`, nil, 3, "env(name) or env(name, default) takes 1 or 2 arguments, got 3"},
		{"env integer name", "{{ env(1) }}", nil, 7, "env: argument 1 must be a quoted string, got the integer 1"},
		{"env integer default", `{{ env("A", 1) }}`, nil, 12, "env: argument 2 must be a quoted string, got the integer 1"},
		{"env empty name", `{{ env("") }}`, nil, 7, `env: "" is not an environment variable name`},
		{"error in second action", "{{ id }}/{{ bad }}", testScope(), 12, `unknown variable "bad" (known: id, name)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp, err := Compile(tc.src, tc.scope)
			if err == nil {
				t.Fatalf("Compile(%q) = %q, want an error", tc.src, tp.Render(nil, testContext()))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if e.Offset != tc.wantOff || e.Msg != tc.wantMsg {
				t.Errorf("error at %d %q, want at %d %q", e.Offset, e.Msg, tc.wantOff, tc.wantMsg)
			}
			if e.Error() != e.Msg {
				t.Errorf("Error() = %q, want Msg %q", e.Error(), e.Msg)
			}
		})
	}
}

func TestCompileReservedNamesShadowVariables(t *testing.T) {
	sc := &Scope{Vars: map[string]int{"vu": 0, "scenario": 1}}
	tp, err := Compile("{{ vu }} {{ scenario }}", sc)
	if err != nil {
		t.Fatal(err)
	}
	c := &Context{Vars: []string{"var-vu", "var-scenario"}, VU: 9, Scenario: "s"}
	if got := string(tp.Render(nil, c)); got != "9 s" {
		t.Errorf("Render = %q, want built-ins %q", got, "9 s")
	}
	if slots := tp.UsesVars(); len(slots) != 0 {
		t.Errorf("UsesVars = %v, want none", slots)
	}
}
