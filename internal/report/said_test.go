package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestWhatTheTargetSaidIsShown: an error group's messages reach the
// terminal's FAILURES lines, the Markdown summary, the HTML errors table
// and summary.json, the most counted first, each with its count, and the
// failures no message counts as others.
func TestWhatTheTargetSaidIsShown(t *testing.T) {
	hikari := "500 Internal Server Error: HikariPool-1 - Connection is not available, request timed out after 30000ms"
	run := &metrics.Run{
		Layout: sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /orders"}}},
		Endpoints: []metrics.EndpointTotal{{Errors: []metrics.ErrorGroup{{Kind: sample.HTTP5xx, Count: 320, First: 2, Last: 9,
			Samples: []metrics.ErrorSample{
				{Kind: sample.HTTP5xx, Status: 500, Message: "500 Internal Server Error", Count: 4, First: 2},
				{Kind: sample.HTTP5xx, Status: 500, Message: hikari, Count: 312, First: 5},
				{Kind: sample.HTTP5xx, Status: 502, Message: "502 Bad Gateway: upstream \\x1b reset", Count: 1, First: 9},
			}}}}},
	}
	var term strings.Builder
	writeFailures(&term, &Input{Run: run})
	var md strings.Builder
	mdErrorsAndChecks(&md, run)
	rows := errorRows(run)
	var html bytes.Buffer
	for _, s := range rows[0].Samples {
		html.WriteString(s.Count + " from " + s.First + " " + s.Message + "\n")
	}
	html.WriteString(rows[0].Others)
	js, err := json.Marshal(errorGroups(run.Endpoints[0].Errors))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		want       []string // in this order
	}{
		{"terminal", term.String(), []string{"http_5xx", "320", "312× 500: HikariPool-1", "4× 500 Internal Server Error\n", "1× 502: upstream \\x1b reset", "3 others"}},
		{"markdown", md.String(), []string{"| 0:02–0:09 |", "312× 500: HikariPool-1 - Connection is not available", "(2 other messages, 3 others)"}},
		{"html", html.String(), []string{"312 from 0:05 " + hikari, "4 from 0:02", "1 from 0:09", "3 others"}},
		{"summary.json", string(js), []string{`"messages":[{"count":4,"first_second":2,"message":"500 Internal Server Error","status":500},{"count":312,"first_second":5,"message":"` + hikari + `","status":500}`, `"others":3`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := 0
			for _, w := range tt.want {
				i := strings.Index(tt.text[at:], w)
				if i < 0 {
					t.Fatalf("lacks %q after byte %d:\n%s", w, at, tt.text)
				}
				at += i + len(w)
			}
		})
	}
}

// TestMarkdownErrorSecondsOfOne: an error group seen in one second shows
// that second, not a range from it to itself ("0:09–0:09", second trial).
func TestMarkdownErrorSecondsOfOne(t *testing.T) {
	run := &metrics.Run{
		Layout: sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /orders"}}},
		Endpoints: []metrics.EndpointTotal{{Errors: []metrics.ErrorGroup{{Kind: sample.HTTP5xx, Count: 3, First: 9, Last: 9,
			Samples: []metrics.ErrorSample{{Kind: sample.HTTP5xx, Status: 500, Message: "500 Internal Server Error", Count: 3, First: 9}}}}}},
	}
	var md strings.Builder
	mdErrorsAndChecks(&md, run)
	if !strings.Contains(md.String(), "| 0:09 |") || strings.Contains(md.String(), "0:09–0:09") {
		t.Errorf("want the one second as 0:09:\n%s", md.String())
	}
}
