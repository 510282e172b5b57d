package cli

import (
	"strings"
	"testing"
)

func TestStopNoticeSaysResultsOnlyWhenThereAreAny(t *testing.T) {
	tests := []struct {
		args    []string
		results bool
	}{
		{[]string{"run", "t.yaml"}, true},
		{[]string{"capacity", "t.yaml"}, true},
		{[]string{"demo"}, true},
		{[]string{"demo", "--quick"}, true},
		{[]string{"demo", "--serve"}, false},
		{[]string{"demo", "-serve", "--addr", "127.0.0.1:0"}, false},
		{[]string{"demo", "--serve=true"}, false},
		{[]string{"demo", "--serve=false"}, true},
		{[]string{"demo", "seed", "--sqlite", "x"}, false},
		{[]string{"mock", "m.yaml"}, false},
		{[]string{"agent"}, false},
		{[]string{"k8s", "run", "t.yaml"}, true},
		{[]string{"k8s", "manifest", "t.yaml"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			first, again := StopNotice(tt.args)
			if got := strings.Contains(first, "results"); got != tt.results {
				t.Errorf("first notice %q: mentions results = %v, want %v", first, got, tt.results)
			}
			if got := strings.Contains(again, "results"); got != tt.results {
				t.Errorf("second notice %q: mentions results = %v, want %v", again, got, tt.results)
			}
		})
	}
}
