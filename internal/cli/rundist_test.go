package cli

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

func TestDistributedFlagsRefuseWhatTheyCannotHonour(t *testing.T) {
	twoCores := plan.Machine{CPUs: 2, MemAvailable: 8 << 30, OpenFiles: 1024}
	for _, tt := range []struct {
		name      string
		d         distFlags
		segment   string
		noMetrics bool
		want      string // "" when accepted
	}{
		{name: "agents with a token", d: distFlags{agents: "h1:1,h2:2", tokenFile: "tok"}},
		{name: "local agents", d: distFlags{local: 4}},
		{name: "both", d: distFlags{agents: "h:1", local: 2, tokenFile: "tok"}, want: "choose one"},
		{name: "negative", d: distFlags{local: -1}, want: "at least 1"},
		{name: "segment", d: distFlags{local: 2}, segment: "0:1/2", want: "--segment"},
		{name: "no metrics", d: distFlags{local: 2}, noMetrics: true, want: "--no-metrics"},
		{name: "no token", d: distFlags{agents: "h:1"}, want: "--token-file"},
		{name: "local agents the cores allow", d: distFlags{local: 16, machine: twoCores}},
		{name: "more local agents than the cores allow", d: distFlags{local: 100000, machine: twoCores},
			want: "--local-agents 100000: this machine can run at most 16 local agents: 2 cores allow 16 (8 a core); 8.6 GB of available memory allow 128 (64 MiB an agent); a limit of 1,024 open files allows 256"},
		{name: "more than memory allows", d: distFlags{local: 5, machine: plan.Machine{CPUs: 2, MemAvailable: 256 << 20}}, want: "at most 4 local agents"},
		{name: "more than open files allow", d: distFlags{local: 15, machine: plan.Machine{CPUs: 2, OpenFiles: 300}}, want: "at most 14 local agents"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.d.check(tt.segment, tt.noMetrics)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// TestShortcutsOverAgentsSayWhy: k6's -u/-d/-i with a test file and
// agents are refused naming the flag as typed and why, not as URL mode's.
func TestShortcutsOverAgentsSayWhy(t *testing.T) {
	for _, tt := range []struct {
		set  map[string]bool
		want string // "" when accepted
	}{
		{map[string]bool{"u": true, "vus": true, "d": true, "duration": true}, "-u with a test file and agents: k6's -u/-d/-i replace a test file's load in a run in one process"},
		{map[string]bool{"iterations": true}, "--iterations with a test file and agents"},
		{map[string]bool{"d": true, "duration": true}, "-d with a test file and agents"},
		{map[string]bool{"agents": true, "quiet": true}, ""},
	} {
		err := refuseShortcutsOverAgents(tt.set)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: refused: %v", tt.set, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: error %v, want one starting %q", tt.set, err, tt.want)
		}
	}
}
