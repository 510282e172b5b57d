package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// TestFailureSamples pins the FAILURES table's sample: wrapped at words
// in its own column, so that its start (the cause) and its end (the fix)
// both survive, every line within units.Columns (the second trial's
// "500: HikariPool-1 - … request timed out after 30000ms" lost
// "Connection is not available"; an older trial saw rows of 91 to 98
// columns torn inside a word).
func TestFailureSamples(t *testing.T) {
	long := strings.Repeat("word ", 60) + "the end"
	tests := []struct {
		name, msg string
		want      []string // the sample's lines as printed
	}{
		{"pool timeout: the cause whole", "500 Internal Server Error: HikariPool-1 - Connection is not available, request timed out after 30000ms.",
			[]string{"500 Internal Server Error: HikariPool-1 - Connection is not", "available, request timed out after 30000ms."}},
		{"redirect refused: the fix survives", "redirect to localhost:28411 refused: the test does not name that host; add it to allow_hosts",
			[]string{"redirect to localhost:28411 refused: the test does not name", "that host; add it to allow_hosts"}},
		{"negative length: the header name whole", `malformed HTTP response: Content-Length "-5" is not a length`,
			[]string{`malformed HTTP response: Content-Length "-5" is not a length`}},
		{"short: whole", "connection refused", []string{"connection refused"}},
		{"very long: three lines, the last cut", long, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &metrics.Run{
				Layout: sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /x"}}},
				Endpoints: []metrics.EndpointTotal{{Errors: []metrics.ErrorGroup{{Kind: sample.Other, Count: 2578, First: 0, Last: 1,
					Samples: []metrics.ErrorSample{{Kind: sample.Other, Message: tt.msg, Count: 1}}}}}},
			}
			var sb strings.Builder
			writeFailures(&sb, &Input{Run: run})
			lines := strings.Split(strings.TrimRight(sb.String(), "\n"), "\n")
			col := strings.Index(lines[0], "SAMPLE")
			var got []string
			for _, l := range lines[1:] {
				if n := utf8.RuneCountInString(l); n > units.Columns {
					t.Errorf("line is %d columns, more than %d: %s", n, units.Columns, l)
				}
				r := []rune(l)
				if len(got) > 0 && strings.TrimSpace(string(r[:col])) != "" {
					t.Errorf("a continuation line writes outside the sample's column: %q", l)
				}
				got = append(got, string(r[col:]))
			}
			if tt.want == nil { // the very long message: its start, three lines, the end kept
				if len(got) != wrapLines || !strings.HasPrefix(got[0], "word word") || !strings.HasSuffix(got[2], "… end") {
					t.Errorf("sample lines %q, want %d lines, the start and the end kept", got, wrapLines)
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("sample lines\n%s\nwant\n%s\n(table:\n%s)", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), sb.String())
			}
		})
	}
}
