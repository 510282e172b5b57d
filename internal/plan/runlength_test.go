package plan

import (
	"strings"
	"testing"
)

// TestScenarioLengthIsBounded: a scenario's durations are added up (its
// load, start_time and graceful stops), and Go's time.Duration wraps past
// about 292 years: two 2,000,000h stages ran as a test that ended before
// it began. A sum past MaxRunLength is refused at the field that takes it
// past, once; each scenario is bounded alone, since scenarios run side by
// side.
func TestScenarioLengthIsBounded(t *testing.T) {
	const why = ": the scenario would last "
	const most = "h (start_time + load + graceful stops): at most 1000h (about 41 days)"
	env := func(k string) (string, bool) { return map[string]string{"HOLD": "1500h"}[k], k == "HOLD" }
	tests := []struct {
		name, scenario string
		want           string // the whole error; "" for a valid test
	}{
		{"duration at the max, with a graceful stop", "rate: 1\n    duration: 2562047h\n    graceful_stop: 2562047h",
			"5:15: scenarios.s.duration" + why + "2562047" + most},
		{"stages each near the max", "model: vus\n    stages:\n      - {duration: 2000000h, target: 1}\n      - {duration: 2000000h, target: 1}",
			"6:20: scenarios.s.stages[0].duration" + why + "2000000" + most},
		{"stages each under the bound, not their sum", "model: vus\n    stages:\n      - {duration: 600h, target: 1}\n      - {duration: 600h, target: 1}",
			"7:20: scenarios.s.stages[1].duration" + why + "1200" + most},
		{"start_time takes it past", "start_time: 900h\n    rate: 1\n    duration: 200h",
			"4:17: scenarios.s.start_time" + why + "1100" + most},
		{"graceful_ramp_down takes it past", "model: vus\n    vus: 1\n    duration: 999h\n    graceful_ramp_down: 2h",
			"7:25: scenarios.s.graceful_ramp_down" + why + "1001" + most},
		{"graceful_stop takes it past by a second", "rate: 1\n    duration: 999h\n    graceful_stop: 1h1s",
			"6:20: scenarios.s.graceful_stop" + why + "1000" + most},
		{"iterations' max_duration", "iterations: 1\n    max_duration: 1001h",
			"5:19: scenarios.s.max_duration" + why + "1001" + most},
		{"a duration from the environment", "rate: 1\n    duration: '{{ env(\"HOLD\") }}'",
			"5:15: scenarios.s.duration" + why + "1500" + most},
		{"exactly the bound", "rate: 1\n    duration: 999h\n    graceful_stop: 1h", ""},
		{"six weeks of soak", "model: vus\n    vus: 1\n    duration: 1000h", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "base_url: http://127.0.0.1:8080\nscenarios:\n  s:\n    " + tc.scenario + "\n    flow: [get: /]\n" +
				"  other:\n    rate: 1\n    duration: 900h\n    flow: [get: /]\n"
			_, err := Parse("t.yaml", []byte(src), env)
			got := ""
			if err != nil {
				got = strings.TrimPrefix(err.Error(), "t.yaml:")
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q\n%s", got, tc.want, src)
			}
		})
	}
}
