package cli

import (
	"strings"
	"testing"
)

func TestDistributedFlagsRefuseWhatTheyCannotHonour(t *testing.T) {
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
