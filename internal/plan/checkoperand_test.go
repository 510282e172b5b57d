package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/jsonpath"
)

// operandHead is a test whose second step carries the check under test;
// the first defines the variables it may read.
const operandHead = `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 10
    duration: 1m
    flow:
      - get: /stats
        extract: {available: {json: $.available}}
      - get: /stats
        check:
          - `

// TestCheckComparesWithValuesOfTheRun parses checks whose value is a
// template or another path of the body: a template of env() alone is
// read now (an ordering's must be a number), one with variables is kept
// to render per iteration, {json: PATH} names another value of the body.
func TestCheckComparesWithValuesOfTheRun(t *testing.T) {
	env := func(k string) (string, bool) {
		return map[string]string{"COUPONS": "40", "WORD": "fifty"}[k], k == "COUPONS" || k == "WORD"
	}
	for _, tc := range []struct {
		check   string
		name    string // the check's default name
		value   string // Values[0]
		dynamic bool   // rendered per iteration (Operand)
		path    string // OperandPath
	}{
		{`{json: $.issued, lte: "{{ available }}"}`, "$.issued <= {{ available }}", "{{ available }}", true, ""},
		{`{json: $.issued, lte: '{{ env("COUPONS", "50") }}'}`, `$.issued <= {{ env("COUPONS", "50") }}`, "40", false, ""},
		{`{json: $.issued, gt: '{{ env("NONE", "50") }}'}`, `$.issued > {{ env("NONE", "50") }}`, "50", false, ""},
		{`{json: $.state, eq: '{{ env("WORD") }}'}`, `$.state == {{ env("WORD") }}`, "fifty", false, ""},
		{`{json: $.issued, lte: {json: $.available}}`, "$.issued <= $.available", "$.available", false, "$.available"},
		{`{json: $.id, ne: "v{{ vu }}-{{ iteration }}"}`, "$.id != v{{ vu }}-{{ iteration }}", "v{{ vu }}-{{ iteration }}", true, ""},
		{`{header: X-Left, gte: "{{ available }}"}`, "header X-Left >= {{ available }}", "{{ available }}", true, ""},
		{`{json: $.issued, lte: 50}`, "$.issued <= 50", "50", false, ""},
		{`{json: $.name, eq: "cart"}`, `$.name == "cart"`, "cart", false, ""},
	} {
		t.Run(tc.check, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(operandHead+tc.check+"\n"), env)
			if err != nil {
				t.Fatal(err)
			}
			c := p.Scenarios[0].Flow[1].Request.Checks[0]
			if c.Name != tc.name || c.Values[0] != tc.value || (c.Operand != nil) != tc.dynamic || c.OperandPath.String() != tc.path {
				t.Errorf("check %q compares with %q (template %v, path %q); want %q with %q (template %v, path %q)",
					c.Name, c.Values[0], c.Operand != nil, c.OperandPath.String(), tc.name, tc.value, tc.dynamic, tc.path)
			}
		})
	}
}

// TestCheckOperandErrors: what validate says of a comparison's value that
// cannot work, at the value.
func TestCheckOperandErrors(t *testing.T) {
	env := func(k string) (string, bool) { return "", false }
	sse := strings.Replace(operandHead, "      - get: /stats\n        check:", "      - sse: /events\n        check:", 1)
	for _, tc := range []struct{ name, src, want string }{
		{"literal string to an ordering", operandHead + "{json: $.issued, lte: ten}\n", `11:35: scenarios.s.flow[1].check[0].lte: expected a number to compare with, got a string "ten"`},
		{"quoted number to an ordering", operandHead + "{json: $.issued, lte: \"50\"}\n", `expected a number to compare with, got a string "50"`},
		{"env() that is no number", operandHead + "{json: $.issued, lte: '{{ env(\"C\", \"fifty\") }}'}\n", `11:35: scenarios.s.flow[1].check[0].lte: expected a number to compare with, got "fifty" (rendered from {{ env("C", "fifty") }})`},
		{"unknown variable", operandHead + "{json: $.issued, lte: \"{{ stock }}\"}\n", `unknown variable "stock" (known: available)`},
		{"variable in an SSE check", sse + "{json: $.issued, lte: \"{{ available }}\"}\n", "this step's checks compare with a value as written or env(); variables, vu and iteration in the value compared with work in HTTP request steps' checks"},
		{"path in a header check", operandHead + "{header: X-Left, lte: {json: $.available}}\n", "{json: PATH} compares with another value of the same JSON body, in a json check only"},
		{"path without json", operandHead + "{json: $.issued, lte: {}}\n", "{json: PATH} needs its path, like {json: $.limit}"},
		{"bad path", operandHead + "{json: $.issued, lte: {json: \"$.a[\"}}\n", "bad JSON path"},
		{"other key", operandHead + "{json: $.issued, lte: {header: X}}\n", `unknown key "header"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tc.src), env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant an error with %q", err, tc.want)
			}
		})
	}
}

// TestCompareTo judges a value against a value compared with as the run
// rendered it: numbers as numbers, strings as strings, and an ordering
// with no number to compare with fails with a reason.
func TestCompareTo(t *testing.T) {
	for _, tc := range []struct {
		op        Op
		got, want string
		pass      bool
		why       string
	}{
		{OpLte, "3", "2", false, ""},
		{OpLte, "2", "2.0", true, ""},
		{OpLt, "9", "10", true, ""}, // as numbers: as strings "9" > "10"
		{OpGte, "3", "2", true, ""},
		{OpEq, "1e1", "10", true, ""},
		{OpEq, "open", "open", true, ""},
		{OpNe, "open", "closed", true, ""},
		{OpEq, "10", "ten", false, ""},
		{OpLte, "3", "fifty", false, `it compares with "fifty", which is not a number`},
		{OpLte, "3", "", false, `it compares with "", which is not a number`},
		{OpGt, "n/a", "2", false, ""}, // the response's value: a plain failure, as before
	} {
		c := Check{Op: tc.op, Values: []string{"{{ x }}"}}
		pass, err := c.CompareTo(tc.got, tc.want)
		why := ""
		if err != nil {
			why = err.Error()
		}
		if pass != tc.pass || why != tc.why {
			t.Errorf("%q op %d %q: %v (%q), want %v (%q)", tc.got, tc.op, tc.want, pass, why, tc.pass, tc.why)
		}
	}
}

// TestJudgeJSONWithAnotherPath compares two values of one document.
func TestJudgeJSONWithAnotherPath(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"issued": 7, "available": 5, "cap": 10}`), &doc); err != nil {
		t.Fatal(err)
	}
	path := func(s string) jsonpath.Path {
		p, err := jsonpath.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		other string
		pass  bool
		why   string
	}{
		{"$.available", false, ""},
		{"$.cap", true, ""},
		{"$.missing", false, "the response has no $.missing to compare with"},
	} {
		c := Check{From: FromJSON, Path: path("$.issued"), Op: OpLte, Values: []string{tc.other}, OperandPath: path(tc.other)}
		pass, err := c.JudgeJSON(doc, nil, tc.other)
		why := ""
		if err != nil {
			why = err.Error()
		}
		if pass != tc.pass || why != tc.why || c.MatchJSON(doc, nil) != tc.pass {
			t.Errorf("$.issued <= %s: %v (%q), want %v (%q)", tc.other, pass, why, tc.pass, tc.why)
		}
	}
}
