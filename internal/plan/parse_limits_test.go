package plan

import (
	"fmt"
	"strings"
	"testing"
)

// aliasBomb returns a file whose json body expands to 10^levels strings
// through nested aliases ("billion laughs").
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("x-0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "x-%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	fmt.Fprintf(&b, "base_url: http://h\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n      - post: /x\n        json: *a%d\n", levels-1)
	return b.String()
}

// mergeBomb returns a file whose merge keys double at every level.
func mergeBomb(levels int) string {
	var b strings.Builder
	b.WriteString("x-0: &m0 {vus: 1}\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "x-%d: &m%d {<<: [*m%d, *m%d]}\n", i, i, i-1, i-1)
	}
	fmt.Fprintf(&b, "scenarios:\n  s:\n    <<: *m%d\n", levels-1)
	return b.String()
}

func TestParseLimitsAliasExpansion(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // one of the errors
	}{
		{"nested aliases in a json body", aliasBomb(9), "the file expands to more than 262144 values; are aliases nested too deep?"},
		{"doubling merge keys", mergeBomb(40), "merge keys (<<) nest too deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
