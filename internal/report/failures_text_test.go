package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// TestFailureSamples pins the FAILURES table's sample: cut at words, its
// start and its end (the fix) kept, never torn inside a field name, and
// the row using up to units.Columns (the trial saw "…sed: the test does
// not na..." in rows of 91 to 98 columns).
func TestFailureSamples(t *testing.T) {
	tests := []struct {
		name, msg string
		want      string // the sample as printed
	}{
		{"redirect refused: the fix survives", "redirect to localhost:28411 refused: the test does not name that host; add it to allow_hosts",
			"redirect to localhost:28411 refused: … add it to allow_hosts"},
		{"negative length: the header name whole", `malformed HTTP response: Content-Length "-5" is not a length`,
			`malformed HTTP response: Content-Length "-5" is not a length`},
		{"two lengths: both values", `malformed HTTP response: two different Content-Length values, "2" and "5"`,
			`malformed … two different Content-Length values, "2" and "5"`},
		{"short: whole", "connection refused", "connection refused"},
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
			if len(lines) != 2 {
				t.Fatalf("want a header and one row:\n%s", sb.String())
			}
			row := lines[1]
			if !strings.HasSuffix(row, "  "+tt.want) {
				t.Errorf("row\n%s\nwant it to end with the sample\n%s", row, tt.want)
			}
			if n := utf8.RuneCountInString(row); n > units.Columns {
				t.Errorf("row is %d columns, more than %d", n, units.Columns)
			}
		})
	}
}
