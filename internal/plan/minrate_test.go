package plan

import (
	"strings"
	"testing"
)

// TestParseBoundsRates: a rate under one iteration a day is refused at its
// field (1e-300 was printed with 300 digits), and a flow's requests too many
// to count are said as "more than" a grouped figure, not a saturated one.
func TestParseBoundsRates(t *testing.T) {
	const low = "less than one iteration a day; the least rate is one a day (1 with time_unit: 24h), or 0 in a stage for none"
	nested := "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duration: 1m\n    max_vus: 10\n    flow:\n"
	indent := "      "
	for range 16 {
		nested += indent + "- repeat: 10000\n" + indent + "  steps:\n"
		indent += "    "
	}
	nested += indent + "- get: /x\n"
	tests := []struct {
		name, src string
		want      string // "" when it parses
	}{
		{"1e-300", scenario("    rate: 1e-300\n    duration: 1m\n"), "4:11: scenarios.s.rate: " + low},
		{"under one a day per hour", scenario("    rate: 0.04\n    time_unit: 1h\n    duration: 1m\n"), "4:11: scenarios.s.rate: " + low},
		{"a stage's target", scenario("    start_rate: 0\n    stages:\n      - {duration: 1m, target: 1e-9}\n"), "6:32: scenarios.s.stages[0].target: " + low},
		{"start_rate", scenario("    start_rate: 1e-12\n    stages:\n      - {duration: 1m, target: 1}\n"), "4:17: scenarios.s.start_rate: " + low},
		{"one a day", scenario("    rate: 1\n    time_unit: 24h\n    duration: 1m\n"), ""},
		{"0 in stages", scenario("    start_rate: 0\n    stages:\n      - {duration: 1m, target: 5}\n      - {duration: 1m, target: 0}\n"), ""},
		{"16 nested repeats", nested, "4:11: scenarios.s.rate: 1 iterations/s (more than 1,000,000,000 requests each) is more than"},
		{"10,000 requests each", strings.Replace(strings.Replace(nested, "repeat: 10000", "repeat: 1", 15), "rate: 1\n", "rate: 100\n", 1),
			"4:11: scenarios.s.rate: 100 iterations/s (10,000 requests each) is more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFor(laptop, "t.yaml", []byte(tt.src), nil)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := "t.yaml:" + tt.want; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error:\n%v\nwant:\n%s", err, want)
			}
		})
	}
}
