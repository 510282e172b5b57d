package plan

import (
	"fmt"
	"testing"
)

// TestDefaultMaxVUsLeavesHeadroom: the default max_vus holds the VUs of
// iterations that all take their worst case plus a second of arrivals, so
// a target that never answers shows as timeouts, not drops (trial defect
// B: ceil(10/s × 500ms) = 5 VUs dropped 5 of 30 arrivals).
func TestDefaultMaxVUsLeavesHeadroom(t *testing.T) {
	cases := []struct {
		rate    int
		timeout string
		flow    string
		want    int
	}{
		{10, "500ms", "[get: /x]", 15},                         // 10/s × (0.5 s + 1 s)
		{20, "1s", "[get: /x]", 40},                            // 20/s × (1 s + 1 s)
		{1, "100ms", "[get: /x]", 2},                           // never fewer than the worst case's one VU and its successor
		{10, "500ms", "[get: /a, think: 1s..2s, get: /b]", 40}, // 10/s × (0.5 + 2 + 0.5 + 1 s)
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d/s %s %s", c.rate, c.timeout, c.flow), func(t *testing.T) {
			src := fmt.Sprintf("base_url: http://h\ntimeout: %s\nscenarios:\n  s: {rate: %d, duration: 3s, flow: %s}\n", c.timeout, c.rate, c.flow)
			p, err := Parse("t.yaml", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Scenarios[0].Load.MaxVUs; got != c.want {
				t.Errorf("default max_vus %d, want %d", got, c.want)
			}
		})
	}
}
