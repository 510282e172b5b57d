package plan

import (
	"math"
	"slices"
	"testing"
)

// warmUp is compare.WarmUp's rule, which the holds compare judges leave out.
func warmUp(n int) int { return min(10, max(1, int(math.Round(float64(n)/20)))) }

func TestHoldsFromTheTestsStages(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []Hold
	}{
		{"case study 1: a rate ramped over a minute, then held ten minutes", `
scenarios:
  first-page:
    model: arrival-rate
    start_rate: 0
    stages:
      - {duration: 1m, target: 100}
      - {duration: 10m, target: 100}
    flow:
      - get: /apps/first-page
`, []Hold{{First: 70, Last: 659, Load: 100}}},
		{"3,000 constant VUs", `
scenarios:
  lookup:
    model: vus
    vus: 3000
    duration: 2m
    flow:
      - get: /products/1
`, []Hold{{First: 6, Last: 119, Load: 3000}}},
		{"two requests an iteration offer twice the rate", `
scenarios:
  browse:
    model: arrival-rate
    rate: 50
    duration: 40s
    flow:
      - get: /a
      - think: 1s
      - get: /b
`, []Hold{{First: 2, Last: 39, Load: 100}}},
		{"a staircase has a hold per step; ramps are left out", `
scenarios:
  steps:
    model: vus
    start_vus: 0
    stages:
      - {duration: 10s, target: 50}
      - {duration: 30s, target: 50}
      - {duration: 10s, target: 100}
      - {duration: 30.5s, target: 100}
      - {duration: 5s, target: 0}
    flow:
      - get: /
`, []Hold{{First: 12, Last: 39, Load: 50}, {First: 52, Last: 79, Load: 100}}},
		{"a scenario starting later splits the hold; a mix is measured", `
scenarios:
  readers:
    model: vus
    vus: 10
    duration: 60s
    flow:
      - get: /feed
  writers:
    model: arrival-rate
    start_time: 20s
    rate: 5
    duration: 40s
    flow:
      - post: /feed
`, []Hold{{First: 1, Last: 19}, {First: 22, Last: 59}}},
		{"iterations have no schedule", `
scenarios:
  once:
    model: iterations
    iterations: 100
    flow:
      - get: /
`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte("base_url: http://127.0.0.1:1\n"+tc.yaml), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := Holds(p, warmUp); !slices.Equal(got, tc.want) {
				t.Errorf("holds %+v, want %+v", got, tc.want)
			}
		})
	}
}
