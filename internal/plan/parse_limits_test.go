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

// stepBomb returns a file whose flow is levels of repeat: blocks of ten
// aliases each, 10^levels valid steps in all.
func stepBomb(levels int) string {
	var b strings.Builder
	b.WriteString("name: laughs\nbase_url: http://h\nx-a0: &a0 {get: /x}\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "x-a%d: &a%d {repeat: 1, steps: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	fmt.Fprintf(&b, "scenarios:\n  s:\n    iterations: 1\n    vus: 1\n    flow: [*a%d]\n", levels)
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
		{"nested aliases in a json body", aliasBomb(9), "t.yaml:17:15: the file expands to more than 262,144 values: the alias *a8 here alone stands for more (an alias of aliases multiplies them); write fewer levels of aliases (a flow loops with repeat:)"},
		// 10^5 valid steps: the budget, spent in a quiet pre-pass, went unsaid, and every step left unread said "a step needs a request"
		{"nested aliases of valid steps", stepBomb(5), "t.yaml:13:12: the file expands to more than 262,144 values: the alias *a5 here alone stands for more (an alias of aliases multiplies them); write fewer levels of aliases (a flow loops with repeat:)"},
		{"doubling merge keys", mergeBomb(40), "t.yaml:43:9: the file expands to more than 262,144 values: the alias *m39 here alone stands for more (an alias of aliases multiplies them); write fewer levels of aliases (a flow loops with repeat:)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || (strings.Contains(tt.want, "expands") && err.Error() != tt.want) {
				t.Fatalf("error %v, want one containing %q (alone when the file expands too far)", err, tt.want)
			}
		})
	}
}
