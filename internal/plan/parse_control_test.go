package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// journey is a realistic flow with every control-flow step: log in, list
// items, open the first few, add some to a cart, check out when the cart
// is not empty.
const journey = `base_url: http://127.0.0.1:8080
scenarios:
  shop:
    vus: 2
    duration: 1m
    vu_vars:
      user: "user{{ vu }}"
    flow:
      - group: login
        steps:
          - post: /login
            json: {user: "{{ user }}"}
            extract:
              token: {json: $.token}
      - if: {checks: failed}
        then:
          - get: /retry
      - get: /items
        extract:
          items: {json: $.items}
      - group: browse
        steps:
          - for_each: items
            as: item_id
            path: $.id
            max: 3
            steps:
              - get: /items/{{ item_id }}
                name: /items/{id}
              - group: inner
                steps:
                  - think: 1s..2s
      - repeat: 2
        steps:
          - choose:
              - weight: 3
                steps: [{post: /cart, json: {item: "{{ item_id }}"}}]
              - steps: [{think: 10ms}]
      - set: {page: "2", note: "{{ page }}-{{ user }}"}
      - get: /cart
        extract:
          cart_size: {json: $.size}
      - unless: {var: cart_size, lte: 0}
        then:
          - post: /checkout
        else:
          - get: /empty
      - if: {status: [200, 201]}
        then: [get: /done]
`

func TestParseControlFlow(t *testing.T) {
	p, err := Parse("t.yaml", []byte(journey), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Scenarios[0]
	kinds := []StepKind{GroupStep, IfStep, RequestStep, GroupStep, RepeatStep, SetStep, RequestStep, IfStep, IfStep}
	if len(s.Flow) != len(kinds) {
		t.Fatalf("%d top-level steps, want %d", len(s.Flow), len(kinds))
	}
	for i, k := range kinds {
		if s.Flow[i].Kind != k {
			t.Errorf("step %d is kind %d, want %d", i, s.Flow[i].Kind, k)
		}
	}
	if s.VUVars != 1 || s.Vars[0] != "user" || len(s.VUSets) != 1 {
		t.Errorf("vu_vars: VUVars %d, Vars %v, %d sets; want user first, one set", s.VUVars, s.Vars, len(s.VUSets))
	}
	var groups []string
	for _, g := range p.Layout.Groups {
		groups = append(groups, g.Name)
	}
	if got, want := strings.Join(groups, " "), "::login ::browse ::browse::inner"; got != want {
		t.Errorf("groups %q, want %q (k6's names)", got, want)
	}
	fe := s.Flow[3].Block.Steps[0]
	if fe.Kind != ForEachStep || fe.Block.Count != 3 || fe.Block.Path.String() != "$.id" || s.Vars[fe.Block.Var] != "item_id" || s.Vars[fe.Block.List] != "items" {
		t.Errorf("for_each: %+v", fe.Block)
	}
	if b := s.Flow[7].Block; !b.Cond.Negate || b.Cond.Test.Op != OpLte || len(b.Else) != 1 {
		t.Errorf("unless: %+v %+v", b.Cond, b)
	}
	if b := s.Flow[4].Block.Steps[0].Block; b.Total != 4 || len(b.Paths) != 2 || b.Paths[1].Weight != 1 {
		t.Errorf("choose: total %d, %d paths", b.Total, len(b.Paths))
	}
	requests := 0
	Walk(s.Flow, func(st *Step) {
		if st.Kind == RequestStep {
			requests++
		}
	})
	if requests != 9 {
		t.Errorf("Walk found %d requests, want 9", requests)
	}
	// at worst: login, retry, items, 3 items (each with a 2s think), 2 carts, cart, checkout or empty, done
	if n, d := worstCase(s.Flow); n != 11 || d != 11*DefaultTimeout+6*time.Second {
		t.Errorf("worst case %d requests in %s, want 11 in %s", n, d, 11*DefaultTimeout+6*time.Second)
	}
}

func TestParseControlFlowInvalid(t *testing.T) {
	tests := []struct{ name, steps, want string }{
		{"two control keys", "      - group: a\n        repeat: 2\n        steps: [get: /x]\n",
			`8:9: scenarios.s.flow[0].repeat: a step is one thing: group and repeat both given; nest one in the other's steps`},
		{"request key on a group", "      - group: a\n        get: /x\n        steps: [get: /x]\n",
			`8:9: scenarios.s.flow[0].get: "get" does not go with group: (its keys: group, steps)`},
		{"group without steps", "      - group: a\n" + getX,
			`7:9: scenarios.s.flow[0]: missing key "steps": the list of steps it runs`},
		{"empty steps", "      - group: a\n        steps: []\n" + getX,
			`8:16: scenarios.s.flow[0].steps: needs at least one step`},
		{"repeat zero", "      - repeat: 0\n        steps: [get: /x]\n",
			`7:17: scenarios.s.flow[0].repeat: must be at least 1, got 0`},
		{"repeat too many", "      - repeat: 10001\n        steps: [get: /x]\n",
			`7:17: scenarios.s.flow[0].repeat: at most 10000 repeats, got 10001`},
		{"for_each unknown list", "      - for_each: nope\n        as: x\n        steps: [get: /x]\n",
			`7:19: scenarios.s.flow[0].for_each: unknown variable "nope" (known: x)`},
		{"for_each bad path", getX + "        extract: {l: {json: $.l}}\n      - for_each: l\n        as: x\n        path: $.[\n        steps: [get: /x]\n",
			`11:17: scenarios.s.flow[1].path: bad JSON path: expected a name after . (use ['...'] for other names), found '['`},
		{"for_each max too large", getX + "        extract: {l: {json: $.l}}\n      - for_each: l\n        as: x\n        max: 20000\n        steps: [get: /x]\n",
			`11:14: scenarios.s.flow[1].max: max is at most 10000, got 20000`},
		{"if unknown variable", "      - if: {var: nope, eq: 1}\n        then: [get: /x]\n",
			`7:19: scenarios.s.flow[0].if.var: unknown variable "nope" (known: )`},
		{"if two comparisons", getX + "        extract: {n: {json: $.n}}\n      - if: {var: n, gt: 1, lt: 5}\n        then: [get: /x]\n",
			`9:29: scenarios.s.flow[1].if.lt: a condition makes one comparison: gt and lt both given; nest a second if:`},
		{"if checks bad word", "      - if: {checks: ok}\n        then: [get: /x]\n",
			`7:22: scenarios.s.flow[0].if.checks: unknown value "ok" (use passed, failed)`},
		{"if comparison on status", "      - if: {status: 200, gt: 1}\n        then: [get: /x]\n",
			`7:27: scenarios.s.flow[0].if.gt: "gt" does not apply to a status condition (it goes with var:)`},
		{"choose one branch", "      - choose:\n          - steps: [get: /x]\n",
			`8:11: scenarios.s.flow[0].choose: choose needs at least two branches`},
		{"choose zero weight", "      - choose:\n          - {weight: 0, steps: [get: /x]}\n          - steps: [get: /y]\n",
			`8:22: scenarios.s.flow[0].choose[0].weight: must be at least 1, got 0`},
		{"set reserved", "      - set: {vu: 1}\n" + getX,
			`7:15: scenarios.s.flow[0].set.vu: variable "vu" is reserved (built-ins: vu, iteration, scenario, env)`},
		{"no request anywhere", "      - group: a\n        steps: [think: 1s]\n",
			`6:5: scenarios.s.flow: needs at least one request step (get: /path, post: /path, ...)`},
		{"nested request error keeps its path", "      - group: a\n        steps:\n          - get: /x\n            timeout: 1x\n",
			`10:22: scenarios.s.flow[0].steps[0].timeout: bad duration "1x" (use 500ms, 2s, 1m)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("testdata/t.yaml", []byte(head+tt.steps), nil)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %v, want Errors", err)
			}
			if got, want := err.Error(), "testdata/t.yaml:"+tt.want; got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestParseControlFlowDepth(t *testing.T) {
	var b strings.Builder
	b.WriteString(head)
	indent := "      "
	for range MaxFlowDepth + 1 {
		b.WriteString(indent + "- group: g\n" + indent + "  steps:\n")
		indent += "    "
	}
	b.WriteString(indent + "- get: /x\n")
	_, err := Parse("t.yaml", []byte(b.String()), nil)
	if err == nil || !strings.Contains(err.Error(), "control-flow steps nest at most 16 deep") {
		t.Fatalf("error %v, want the nesting bound", err)
	}
}

func TestParseVUVarsDataColumn(t *testing.T) {
	src := strings.Replace(head, "    flow:\n", "    data: users.csv\n    vu_vars: {user: x}\n    flow:\n", 1) + getX
	_, err := Parse("testdata/t.yaml", []byte(src), nil)
	if err == nil || !strings.Contains(err.Error(), `variable "user" is a column of the data file`) {
		t.Fatalf("error %v, want the data column refused", err)
	}
}

func TestParseGroupThreshold(t *testing.T) {
	flow := "      - group: login\n        steps: [get: /x]\n"
	if _, err := Parse("t.yaml", []byte(head+flow+"thresholds:\n  'group_duration{group:::login}': [\"p(95)<1s\"]\n"), nil); err != nil {
		t.Fatalf("a threshold on a defined group: %v", err)
	}
	_, err := Parse("t.yaml", []byte(head+flow+"thresholds:\n  'group_duration{group:::logn}': [\"p(95)<1s\"]\n"), nil)
	if want := `t.yaml:10:25: thresholds.group_duration{group:::logn}: unknown group "::logn"; did you mean "::login"? (the test defines: "::login")`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestParseSetupTeardown(t *testing.T) {
	src := "base_url: http://127.0.0.1:8080\nsetup:\n  - post: /login\n    extract: {token: {json: $.token}}\n" +
		"scenarios:\n  s:\n    vus: 1\n    duration: 1s\n    vu_vars: {me: \"{{ token }}\"}\n    flow: [get: \"/x/{{ token }}\"]\n" +
		"teardown:\n  - delete: \"/s/{{ token }}\"\n    extract: {gone: {json: $.ok}}\n"
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Scenarios[0]
	if s.SetupAt != 1 || s.Vars[1] != "token" || s.VUVars != 2 {
		t.Errorf("scenario vars %v, setup at %d, %d kept; want token after the vu_var, both kept", s.Vars, s.SetupAt, s.VUVars)
	}
	if got := strings.Join(p.Teardown.Vars, ","); got != "token,gone" {
		t.Errorf("teardown vars %s, want the setup's first", got)
	}
	if len(p.Layout.Endpoints) != 1 {
		t.Errorf("%d endpoints, want 1: setup and teardown requests are not measured", len(p.Layout.Endpoints))
	}
	_, err = Parse("t.yaml", []byte("base_url: http://h\nsetup: [get: /a]\nscenarios: {s: {vus: 1, duration: 1s, flow: [get: /]}}\nteardown: [get: \"/{{ nope }}\"]\n"), nil)
	if want := `t.yaml:4:22: teardown[0].get: unknown variable "nope"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %s...", err, want)
	}
}

func TestParseGroupedEndpoints(t *testing.T) {
	flow := getX + "      - group: g\n        steps: [get: /x]\n"
	p, err := Parse("t.yaml", []byte(head+flow+"thresholds:\n  'http_req_duration{group:::g}': [\"p(95)<1s\"]\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	eps := p.Layout.Endpoints
	if len(eps) != 2 || eps[0].Group != "" || eps[1].Group != "::g" || eps[0].Name != eps[1].Name {
		t.Errorf("endpoints %+v: want GET /x outside the group and GET /x in ::g", eps)
	}
}

func TestParseTaggedThresholds(t *testing.T) {
	for _, tc := range []struct {
		key  string
		keep bool
		want string // error; "" when it parses
	}{
		{"http_req_duration{expected_response:true}", true, ""},
		{"http_req_duration{name:/x}", false, ""},
		{"http_req_duration{name:GET /x}", false, ""},
		{"http_reqs{name:/y}", false, `t.yaml:9:19: thresholds.http_reqs{name:/y}: unknown name "/y"; did you mean "/x"? (the test defines: "/x")`},
		{"http_req_duration", false, ""},
	} {
		p, err := Parse("t.yaml", []byte(head+getX+"thresholds:\n  '"+tc.key+"': [\"count>0\"]\n"), nil)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.key, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s: error %v, want %s", tc.key, err, tc.want)
		case err == nil && p.Layout.KeepExpected != tc.keep:
			t.Errorf("%s: KeepExpected %v, want %v", tc.key, p.Layout.KeepExpected, tc.keep)
		}
	}
}

// TestRedactNestedAndSetupHeaders: a literal credential in a step inside a
// group, or in the setup, is kept out of the stored test like any other.
func TestRedactNestedAndSetupHeaders(t *testing.T) {
	src := head + "      - group: g\n        steps:\n          - get: /x\n            headers: {Authorization: Bearer s3cretLiteral}\n" +
		"setup:\n  - get: /y\n    headers: {X-Api-Key: k3yLiteral}\n"
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(p.Source); strings.Contains(s, "s3cretLiteral") || strings.Contains(s, "k3yLiteral") || !strings.Contains(s, "[REDACTED]") {
		t.Errorf("a credential was stored:\n%s", s)
	}
}
