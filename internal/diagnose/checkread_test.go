package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestCheckFailingApartIsNoRace is the outside trial's flow.yaml: GET
// /items/{id} expects [200, 404], its check "$.price >= 10" failed on
// every 404 ("nope", not JSON) and passed on the 200s under 15 VUs, and
// diagnosis said CRITICAL "what a race looks like", "make the update
// atomic". Failures on bodies the check could not read, or all on a status
// it never passed on, are the answers' kind: a warning that says so and
// scopes the check. A check that read values and found some wrong, on the
// status it passes on, under several VUs, is still the race.
func TestCheckFailingApartIsNoRace(t *testing.T) {
	st := func(status int, passes, fails int64) metrics.CheckStatus {
		return metrics.CheckStatus{Status: status, Passes: passes, Fails: fails}
	}
	cases := []struct {
		name  string
		read  metrics.CheckSecond // a second's outcomes
		race  bool
		sev   Severity
		title string // in the title
		want  string // in the evidence and remedies
	}{
		{"every 404 failed, its body not JSON (the trial)",
			metrics.CheckSecond{Passes: 48, Fails: 2, NotJSON: 2, Statuses: []metrics.CheckStatus{st(200, 48, 0), st(404, 0, 2)}},
			false, Warning, "every time on a 404 answer whose body is not JSON", "failed on every answer of status 404 (10 of 10)"},
		{"every 404 failed, its body JSON",
			metrics.CheckSecond{Passes: 48, Fails: 2, Statuses: []metrics.CheckStatus{st(200, 48, 0), st(404, 0, 2)}},
			false, Warning, "every time on a 404 answer, a status it never passed on", "scope the check"},
		{"200s with no value at its path",
			metrics.CheckSecond{Passes: 48, Fails: 2, NoValue: 2, Statuses: []metrics.CheckStatus{st(200, 48, 2)}},
			false, Warning, "every time on a body that has no value at its path", "10 failures were on JSON bodies with no value"},
		{"a race: values read wrong on the status it passes on",
			metrics.CheckSecond{Passes: 48, Fails: 2, Statuses: []metrics.CheckStatus{st(200, 48, 2)}},
			true, Critical, `"$.price >= 10" failed 10 of 250 times`, "what a race looks like"},
		{"a race beside bodies it could not read",
			metrics.CheckSecond{Passes: 48, Fails: 2, NotJSON: 1, Statuses: []metrics.CheckStatus{st(200, 48, 2)}},
			true, Critical, `"$.price >= 10" failed 10 of 250 times`, "make the update atomic"},
		{"a run.db that kept no reads",
			metrics.CheckSecond{Passes: 48, Fails: 2},
			true, Critical, `"$.price >= 10" failed 10 of 250 times`, "make the update atomic"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "open", Model: "arrival-rate"}},
				Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /items/{id}", Method: "GET"}},
				Checks:    []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: "$.price >= 10"}}}
			var secs []sec
			for range 5 {
				secs = append(secs, sec{vus: 15, reqs: []reqs{{ep: 0, n: 50, dur: even(5*time.Millisecond, 0)}},
					reads: []metrics.CheckSecond{c.read}})
			}
			var found *Finding
			fs := Diagnose(Input{Run: build(t, l, secs)})
			for i := range fs {
				if fs[i].Kind == KindCheckFailed {
					found = &fs[i]
				}
			}
			if found == nil {
				t.Fatalf("no check-failed finding: %s", titles(fs))
			}
			title := title(*found)
			var ev []string
			for _, e := range found.Evidence {
				ev = append(ev, evidenceText(*found, e))
			}
			said := strings.Join(ev, "\n") + "\n" + strings.Join(found.Remedies, "\n")
			race := strings.Contains(said, "make the update atomic") || strings.Contains(said, "race looks like")
			if race != c.race || found.Severity != c.sev || !strings.Contains(title, c.title) || !strings.Contains(said, c.want) {
				t.Errorf("%s %s\n%s\nwant race %v, %s, %q in the title and %q said", found.Severity, title, said, c.race, c.sev, c.title, c.want)
			}
		})
	}
}
