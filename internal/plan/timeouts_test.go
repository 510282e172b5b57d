package plan

import (
	"testing"
	"time"
)

func TestShortestTimeout(t *testing.T) {
	// scenario is one VU's scenario whose flow is steps (YAML, indented as flow items)
	scenario := func(name, steps string) string {
		return "  " + name + ":\n    vus: 1\n    duration: 1s\n    flow:\n" + steps
	}
	get := "      - get: /a\n"
	tests := []struct {
		name string
		yaml string
		want time.Duration
	}{
		{"the default", "scenarios:\n" + scenario("s", get), DefaultTimeout},
		{"the test's own", "timeout: 5s\nscenarios:\n" + scenario("s", get), 5 * time.Second},
		{"a request's, nested in a loop, shorter than the test's", "timeout: 5s\nscenarios:\n" +
			scenario("s", get+"      - repeat: 2\n        steps:\n          - get: /b\n            timeout: 2s\n") +
			scenario("t", "      - get: /c\n        timeout: 3s\n"), 2 * time.Second},
		{"a session's, shorter than every request's", "timeout: 5s\nscenarios:\n" +
			scenario("s", get+"      - sse: /events\n        duration: 10s\n        timeout: 1s\n"), time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte("base_url: http://127.0.0.1:1\n"+tc.yaml), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.ShortestTimeout(); got != tc.want {
				t.Errorf("ShortestTimeout = %v, want %v", got, tc.want)
			}
		})
	}
}
