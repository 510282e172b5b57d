package plan

import (
	"strings"
	"testing"
)

// TestTypoSuggestions: typical typos of keys at several levels of a test
// file get their key suggested; a word far from every key gets none.
func TestTypoSuggestions(t *testing.T) {
	const head = "base_url: http://127.0.0.1:8080\n"
	scenario := func(body string) string {
		return head + "scenarios:\n  main:\n" + body
	}
	const flow = "    vus: 1\n    duration: 1s\n"
	tests := []struct {
		name, src, field, typo, want string // want "": no suggestion
	}{
		{"top level, swapped", head + "thresohlds: {}\nscenarios: {main: {vus: 1, duration: 1s, flow: [get: /]}}\n", "thresohlds", "thresohlds", "thresholds"},
		{"top level, missing", head + "heders: {A: b}\nscenarios: {main: {vus: 1, duration: 1s, flow: [get: /]}}\n", "heders", "heders", "headers"},
		{"scenario, swapped", scenario("    modle: vus\n" + flow + "    flow: [get: /]\n"), "scenarios.main.modle", "modle", "model"},
		{"scenario, swapped first letters", scenario("    mdoel: vus\n" + flow + "    flow: [get: /]\n"), "scenarios.main.mdoel", "mdoel", "model"},
		{"scenario, missing", scenario("    vus: 1\n    duraton: 1s\n    flow: [get: /]\n"), "scenarios.main.duraton", "duraton", "duration"},
		{"scenario, extra", scenario(flow + "    floow: [get: /]\n    flow: [get: /]\n"), "scenarios.main.floow", "floow", "flow"},
		{"step, swapped", scenario(flow + "    flow:\n      - get: /\n        chekc: {status: 200}\n"), "scenarios.main.flow[0].chekc", "chekc", "check"},
		{"step, wrong letter", scenario(flow + "    flow:\n      - get: /\n        heeders: {A: b}\n"), "scenarios.main.flow[0].heeders", "heeders", "headers"},
		{"step, swapped in a long key", scenario(flow + "    flow:\n      - get: /\n        tiemout: 2s\n"), "scenarios.main.flow[0].tiemout", "tiemout", "timeout"},
		{"stage, swapped", scenario("    model: vus\n    stages: [{duration: 1s, tagret: 2}]\n    flow: [get: /]\n"), "scenarios.main.stages[0].tagret", "tagret", "target"},
		{"far off", scenario(flow + "    banana: 1\n    flow: [get: /]\n"), "scenarios.main.banana", "banana", ""},
		{"two swaps", scenario("    mdolee: vus\n" + flow + "    flow: [get: /]\n"), "scenarios.main.mdolee", "mdolee", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tc.src), nil)
			if err == nil {
				t.Fatal("no error")
			}
			got := err.Error()
			prefix := tc.field + `: unknown key "` + tc.typo + `"`
			if !strings.Contains(got, prefix) {
				t.Fatalf("got %q; want %q", got, prefix)
			}
			hint := strings.Contains(got, "did you mean")
			if tc.want == "" && hint {
				t.Errorf("got %q; want no suggestion", got)
			}
			if tc.want != "" && !strings.Contains(got, prefix+`; did you mean "`+tc.want+`"?`) {
				t.Errorf("got %q; want the suggestion %q", got, tc.want)
			}
		})
	}
}
