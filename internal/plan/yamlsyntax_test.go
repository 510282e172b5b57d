package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// TestSyntaxErrorNamesPathAndHint: a YAML syntax error names the key path
// the text had reached and, for the usual slips, hints at the fix; before,
// an under-indented "check:" got only "value is not allowed in this context".
func TestSyntaxErrorNamesPathAndHint(t *testing.T) {
	const head = "base_url: http://127.0.0.1:8080\nscenarios:\n  main:\n    vus: 1\n    duration: 1s\n"
	tests := []struct {
		name, src  string
		line, col  int
		field, msg string // msg: the whole message after "YAML syntax error: "
	}{
		{"under-indented key of a step", head + "    flow:\n      - get: /x\n        name: x\n      check:\n          status: 200\n",
			9, 7, "scenarios.main.flow[0]", `value is not allowed in this context (indented 6 spaces where "name" on line 8 is at 8: indented too little?)`},
		{"a key one space short", head + "    flow:\n      - get: /x\n        name: x\n       check: {status: 200}\n",
			9, 8, "scenarios.main.flow[0]", `value is not allowed in this context (indented 7 spaces where "name" on line 8 is at 8: indented too little?)`},
		{"a key of the second item", head + "    flow:\n    - get: /a\n    - get: /b\n      name: x\n     check: {status: 200}\n",
			10, 6, "scenarios.main.flow[1]", `value is not allowed in this context (indented 5 spaces where "name" on line 9 is at 6: indented too little?)`},
		{"under-indented in a nested mapping", head + "    flow:\n      - get: /x\n        check:\n          status: 200\n       json: {a: 1}\n",
			10, 8, "scenarios.main.flow[0].check", `value is not allowed in this context (indented 7 spaces where "status" on line 9 is at 10: indented too little?)`},
		{"over-indented after a plain value", head + "     flow: [get: /x]\n",
			6, 6, "scenarios.main", `mapping value is not allowed in this context (line 6 is indented under "duration" on line 5, which has a value: line 6 too deep, or line 5 too shallow?)`},
		{"over-indented after a list", "base_url: http://127.0.0.1:8080\nthresholds:\n  http_req_failed: [\"rate<0.01\"]\n   http_reqs: [\"count>1\"]\n",
			4, 4, "thresholds", `value is not allowed in this context (indented 3 spaces where "http_req_failed" on line 3 is at 2: indented too deep?)`},
		{"tab", "base_url: http://127.0.0.1:8080\nscenarios:\n  main:\n\tvus: 1\n",
			4, 1, "scenarios.main", "found a tab that cannot start any token (indent with spaces: YAML does not allow tabs there)"},
		{"missing colon", "base_url: http://127.0.0.1:8080\nscenarios:\n  main:\n    vus 1\n    duration: 1s\n",
			4, 5, "scenarios.main", `unexpected key name (missing ':' in "vus 1"?)`},
		{"missing colon in a step", head + "    flow:\n      - get /x\n        name: x\n",
			7, 9, "scenarios.main.flow[0]", `unexpected key name (missing ':' in "get /x"?)`},
		{"unclosed quote", head + "    flow:\n      - get: \"/x\n        name: x\n",
			7, 14, "scenarios.main.flow[0].get", "could not find end character of double-quoted text (the quote opened here is never closed)"},
		{"unclosed flow list", head + "    flow: [get: /x\n",
			6, 11, "scenarios.main.flow", "sequence end token ']' not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tc.src), nil)
			var errs yamldoc.Errors
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Fatalf("want one error, got %v", err)
			}
			e := errs[0]
			msg := strings.TrimPrefix(e.Msg, "YAML syntax error: ")
			if e.File != "t.yaml" || e.Line != tc.line || e.Column != tc.col || e.Field != tc.field || msg != tc.msg {
				t.Errorf("got  %s\nwant t.yaml:%d:%d: %s: YAML syntax error: %s", e.Error(), tc.line, tc.col, tc.field, tc.msg)
			}
		})
	}
}
