package plan

import (
	"strings"
	"testing"
)

// TestSessionStepsBelongInAFlow: every session protocol's step is refused
// in setup: and teardown:, and has its keys checked, with the same words.
func TestSessionStepsBelongInAFlow(t *testing.T) {
	for _, tt := range []struct {
		name, step, want string
	}{
		{"sse in setup", "setup:\n  - sse: /events\n    duration: 1s\n", "t.yaml:9:5: setup[0].sse: an sse: step is measured, so it belongs in a scenario's flow, not in setup: or teardown:"},
		{"ws in teardown", "teardown:\n  - ws: /chat\n    duration: 1s\n", "t.yaml:9:5: teardown[0].ws: a ws: step is measured, so it belongs in a scenario's flow, not in setup: or teardown:"},
		{"grpc in setup", "setup:\n  - grpc: 127.0.0.1:1\n    method: a.B/C\n", "t.yaml:9:5: setup[0].grpc: a grpc: step is measured, so it belongs in a scenario's flow, not in setup: or teardown:"},
		{"sse key typo", "setup:\n  - sse: /events\n    duraton: 1s\n", `t.yaml:10:5: setup[0].duraton: unknown key "duraton"; did you mean "duration"?`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(head+"      - get: /x\n"+tt.step), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to hold %q", err, tt.want)
			}
		})
	}
}

// TestLiteralBytesSkipTemplates: a path's query and its control characters
// are found in its literal text only, never inside {{ }}.
func TestLiteralBytesSkipTemplates(t *testing.T) {
	for _, tt := range []struct {
		path, cut string
		bad       int // unsendable's index, -1 for none
	}{
		{"/a?b=1", "/a", -1},
		{"/a/{{ x ? 1 : 2 }}/b?c", "/a/{{ x ? 1 : 2 }}/b", -1},
		{"/a{{ '\t' }}b", "/a{{ '\t' }}b", -1},
		{"/a\tb?x", "/a\tb", 2},
		{"/}}?x", "/}}", -1},
		{"/{{ a }}\x7f", "/{{ a }}\x7f", 8},
	} {
		if got := pathWithoutQuery(tt.path); got != tt.cut {
			t.Errorf("pathWithoutQuery(%q) = %q, want %q", tt.path, got, tt.cut)
		}
		i, _, found := unsendable(tt.path)
		if (tt.bad < 0 && found) || (tt.bad >= 0 && (!found || i != tt.bad)) {
			t.Errorf("unsendable(%q) = %d, %v; want %d", tt.path, i, found, tt.bad)
		}
	}
}
