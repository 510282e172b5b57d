package plan

import (
	"testing"
	"time"
)

func TestArrivalSlack(t *testing.T) {
	tests := []struct {
		name string
		key  string // the scenario's arrival_slack line, "" for none
		want time.Duration
	}{
		{"default", "", DefaultArrivalSlack},
		{"exact spacing", "    arrival_slack: 0s\n", 0},
		{"bare zero", "    arrival_slack: 0\n", 0},
		{"wider", "    arrival_slack: 2ms\n", 2 * time.Millisecond},
		{"from the environment", "    arrival_slack: '{{ env(\"SLACK\", \"300us\") }}'\n", 300 * time.Microsecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "base_url: http://127.0.0.1:8080\nscenarios:\n  s:\n    rate: 100\n    duration: 1m\n" + tt.key + "    flow: [get: /x]\n"
			p, err := Parse("t.yaml", []byte(src), func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Scenarios[0].Load.ArrivalSlack; got != tt.want {
				t.Fatalf("arrival slack %v, want %v", got, tt.want)
			}
		})
	}
}
