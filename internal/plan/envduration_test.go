package plan

import (
	"strings"
	"testing"
	"time"
)

// TestEnvDurations covers durations taken from the environment, which let
// the examples run for seconds in CI and for their documented length by hand.
func TestEnvDurations(t *testing.T) {
	env := func(k string) (string, bool) {
		switch k {
		case "HOLD":
			return "3s", true
		case "BAD":
			return "soon", true
		case "NEG":
			return "-2s", true
		}
		return "", false
	}
	load := func(dur string) string {
		return "base_url: http://127.0.0.1:8080\nscenarios:\n  s:\n    start_rate: 10\n    start_time: '{{ env(\"START\", \"1s\") }}'\n" +
			"    stages:\n      - {duration: " + dur + ", target: 10}\n    flow: [get: /x]\n"
	}
	tests := []struct {
		name    string
		dur     string
		want    time.Duration
		wantErr string
	}{
		{"set", `'{{ env.HOLD }}'`, 3 * time.Second, ""},
		{"set, over its default", `'{{ env("HOLD", "9m") }}'`, 3 * time.Second, ""},
		{"unset: the default", `'{{ env("RAMP", "1m") }}'`, time.Minute, ""},
		{"with text around", `'1{{ env("X", "0") }}s'`, 10 * time.Second, ""},
		{"unset without a default", `'{{ env.RAMP }}'`, 0, "7:24: scenarios.s.stages[0].duration: environment variable RAMP is not set"},
		{"too large", `'{{ env("HUGE", "9999999999h") }}'`, 0, `7:20: scenarios.s.stages[0].duration: duration "9999999999h" from {{ env("HUGE", "9999999999h") }} is too large: at most 2562047h (about 292 years)`},
		{"not a duration", `'{{ env.BAD }}'`, 0, `7:20: scenarios.s.stages[0].duration: bad duration "soon" from {{ env.BAD }} (use 500ms, 2s, 1m)`},
		{"negative", `'{{ env.NEG }}'`, 0, "7:20: scenarios.s.stages[0].duration: must not be negative, got -2s from {{ env.NEG }}"},
		{"changes per request", `'{{ randInt(1, 2) }}s'`, 0, "7:20: scenarios.s.stages[0].duration: a duration is fixed for the whole run: only env lookups may be templated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(load(tt.dur)), env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Scenarios[0].Load.Stages[0].Duration; got != tt.want {
				t.Errorf("stage duration %v, want %v", got, tt.want)
			}
			if got := p.Scenarios[0].StartTime; got != time.Second {
				t.Errorf("start_time %v, want the default 1s", got)
			}
		})
	}
}
