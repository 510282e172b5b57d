package importer

import (
	"strings"
	"testing"
)

func TestLit(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          "plain",
		"a {{ b }} c":    `a {{ "{{" }} b }} c`,
		"}} alone stays": "}} alone stays",
	} {
		if got := Lit(in); got != want {
			t.Errorf("Lit(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRenderValidates renders a test with every kind of step and value that
// needs quoting, and checks that loadlens parses it back.
func TestRenderValidates(t *testing.T) {
	tst := &Test{
		Source: "a test", Notes: []string{"a note"}, NotConverted: []string{"something"},
		Name: "all-kinds", BaseURL: `{{ env("BASE_URL", "http://127.0.0.1:8080") }}`,
		Headers:    []Header{{Name: "User-Agent", Value: "Mozilla/5.0 (X11) 'quoted' \"too\""}},
		Thresholds: []Threshold{{Metric: "http_req_duration", Exprs: []string{"p(95)<500"}}, {Metric: "checks", Exprs: []string{"rate>0.9"}, Abort: true, DelayAbort: "10s"}},
		Scenarios: []*Scenario{{
			Name: "s", Load: []KV{{"model", "vus"}, {"start_vus", Raw("1")}, {"stages", []Stage{{"10s", "5"}}}},
			Flow: []Step{
				{Comment: "first\nsecond line", Method: "POST", Path: "/a?b=" + Lit("{{x}}"), Name: "/a",
					Headers: []Header{{Name: "Content-Type", Value: "application/json"}},
					Body:    "{\"tab\":\"\t\", \"yes\": true}", HasBody: true,
					Check:   []Check{{Status: []int{200, 201}}, {Name: "has id", JSON: "$.id", Op: "exists", Value: true}, {BodyContains: "ok: yes"}},
					Extract: []Extract{{Var: "id", JSON: "$.id"}, {Var: "h", Header: "X-Id", Regex: `id=(\w+)`}}},
				{Think: "1s..2s"},
				{Method: "PURGE", Path: "/cache", Timeout: "5s", ExpectStatus: []int{404}},
				{Method: "PUT", Path: "/j", JSON: Object{{"n", 1.5}, {"s", Lit("{{ not a template }}")}, {"l", []any{true, nil}}}},
				{Method: "POST", Path: "/f", Form: []KV{{"user", "{{ id }}"}, {"yes", "no"}}},
				{Method: "GET", Path: "/e", HasBody: true},
			},
		}},
	}
	out, err := Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"# Not converted:", "#   - something", "name: all-kinds", "- think: '1s..2s'", "method: PURGE", `json: {"n": 1.5`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRenderRejectsInvalid: a test the import made that does not validate
// is refused with the parser's errors at their line:column of the test,
// never at the file it would have been written to, which it is not.
func TestRenderRejectsInvalid(t *testing.T) {
	tst := &Test{Name: "bad", Scenarios: []*Scenario{{Name: "s", Load: DefaultLoad(), Flow: []Step{{Method: "GET", Path: "/x/{{ nope }}"}}}}}
	_, err := Render(tst, "pantheon.yaml")
	if err == nil || !strings.Contains(err.Error(), `unknown variable "nope"`) || !strings.Contains(err.Error(), "not written") {
		t.Errorf("an invalid test rendered without the parser's error: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "pantheon.yaml") {
		t.Errorf("the error names a file that was not written: %v", err)
	}
}

func TestHoistHeaders(t *testing.T) {
	flow := []Step{
		{Method: "GET", Path: "/a", Headers: []Header{{"A", "1"}, {"B", "1"}}},
		{Think: "1s"},
		{Method: "GET", Path: "/b", Headers: []Header{{"a", "1"}, {"B", "2"}}},
	}
	common, flow := HoistHeaders(flow)
	if len(common) != 1 || common[0].Name != "A" || len(flow[0].Headers) != 1 || len(flow[2].Headers) != 1 {
		t.Errorf("common %v, steps %v / %v", common, flow[0].Headers, flow[2].Headers)
	}
}

// TestRenderControlSteps writes repeat:, set: and for_each: (with path:,
// max: and a value that needs quoting) as the test format reads them.
func TestRenderControlSteps(t *testing.T) {
	get := Step{Method: "GET", Path: "/p/{{ x }}"}
	tst := &Test{Name: "loops", BaseURL: "http://127.0.0.1:8080", Scenarios: []*Scenario{{
		Name: "s", Load: []KV{{"vus", Raw("1")}, {"duration", "1s"}},
		Flow: []Step{
			{Repeat: 3, Steps: []Step{{Method: "GET", Path: "/r"}}},
			{Set: []KV{{"xs", `["it's", "b"]`}}},
			{ForEach: "xs", As: "x", EachPath: "$.id", Max: 150, Steps: []Step{get}},
		},
	}}}
	out, err := Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "      - repeat: 3\n        steps:\n          - get: /r\n" +
		"      - set: {xs: \"[\\\"it's\\\", \\\"b\\\"]\"}\n" +
		"      - for_each: xs\n        as: x\n        path: '$.id'\n        max: 150\n        steps:\n          - get: '/p/{{ x }}'\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("lacks\n%s\nin\n%s", want, out)
	}
}
