package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestErrorsQuoteWhatTheTargetSaid: the errors findings' evidence quotes
// the message the target answered a failure kind with most often (an HTTP
// error body's words, a gRPC status message), and quotes nothing when it
// said no more than its status or the failure was loadlens's own words.
func TestErrorsQuoteWhatTheTargetSaid(t *testing.T) {
	said := "HikariPool-1 - Connection is not available, request timed out after 30000ms"
	hikari := "503 Service Unavailable: " + said
	cases := []struct {
		name  string
		kind  sample.Kind
		msgs  []string // the failures' messages, one per failing request in turn
		all   bool     // every request fails: the all-failed finding
		want  string   // in the kind's evidence line; "" for no quote
		never string
	}{
		{"HTTP 5xx body at load", sample.HTTP5xx, []string{hikari}, false, `, most often "503: ` + said + `"`, ""},
		{"the most frequent message", sample.HTTP5xx, []string{"503 Service Unavailable: rare", hikari, hikari, hikari, hikari}, false,
			`most often "503: ` + said + `"`, "rare"},
		{"status line alone", sample.HTTP5xx, []string{"503 Service Unavailable"}, false, "", "most often"},
		{"a timeout is loadlens's words", sample.Timeout, []string{"context deadline exceeded: the server said nothing"}, false, "", "most often"},
		{"gRPC status message", sample.GRPCUnavailable, []string{"UNAVAILABLE: upstream connect error"}, false, `most often "UNAVAILABLE: upstream connect error"`, ""},
		{"every request failed", sample.HTTP5xx, []string{hikari}, true, `most often "503: ` + said + `"`, ""},
		{"control characters are escaped", sample.HTTP4xx, []string{"409 Conflict: sold\x1b[2J out"}, false, `most often "409: sold\x1b[2J out"`, "\x1b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			secs := steady(30, 100, 20, 30*time.Millisecond)
			first := 17
			if tc.all {
				first = 0
			}
			for i := first; i < len(secs); i++ {
				r := &secs[i].reqs[0]
				r.fail, r.kind = r.n, tc.kind
				if !tc.all {
					r.fail = 10
				}
				r.msg = tc.msgs[i%len(tc.msgs)]
			}
			fs := Diagnose(Input{Run: build(t, layout(modelVUs, "GET /orders"), secs)})
			kind := KindErrorsAtLoad
			if tc.all {
				kind = KindAllFailed
			}
			f, ok := findKind(fs, kind)
			if !ok {
				t.Fatalf("no %s finding: %s", kind, titles(fs))
			}
			var lines []string
			for _, e := range f.Evidence {
				lines = append(lines, evidenceText(f, e))
			}
			text := strings.Join(lines, "\n")
			if tc.want != "" && !strings.Contains(text, tc.want) {
				t.Errorf("evidence lacks %q:\n%s", tc.want, text)
			}
			if tc.never != "" && strings.Contains(text, tc.never) {
				t.Errorf("evidence has %q:\n%s", tc.never, text)
			}
		})
	}
}
