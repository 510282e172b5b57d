package plan

import (
	"strings"
	"testing"
)

// TestHTTP2Key: http2 at the top is every scenario's default, a scenario's
// own http2 wins, and it is off unless set.
func TestHTTP2Key(t *testing.T) {
	const scenarios = `scenarios:
  a:
    rate: 1
    duration: 1s
    flow: [get: /x]
  b:
    rate: 1
    duration: 1s
    http2: %s
    flow: [get: /x]
`
	cases := []struct {
		name         string
		top, own     string // "" leaves the key out
		wantA, wantB bool
	}{
		{"off by default", "", "", false, false},
		{"on at the top", "true", "", true, true},
		{"on for one scenario", "", "true", false, true},
		{"off for one scenario", "true", "false", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "base_url: https://127.0.0.1:8443\n"
			if c.top != "" {
				src += "http2: " + c.top + "\n"
			}
			sc := strings.Replace(scenarios, "    http2: %s\n", "", 1)
			if c.own != "" {
				sc = strings.Replace(scenarios, "%s", c.own, 1)
			}
			p, err := Parse("t.yaml", []byte(src+sc), noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if p.Scenarios[0].HTTP2 != c.wantA || p.Scenarios[1].HTTP2 != c.wantB {
				t.Fatalf("http2 %v, %v; want %v, %v", p.Scenarios[0].HTTP2, p.Scenarios[1].HTTP2, c.wantA, c.wantB)
			}
		})
	}
	_, err := Parse("t.yaml", []byte("http2: h2\n"+head+getX), noEnv)
	if err == nil || !strings.Contains(err.Error(), `1:8: http2: expected true or false, got a string "h2"`) {
		t.Fatalf("err = %v, want the value named", err)
	}
}
