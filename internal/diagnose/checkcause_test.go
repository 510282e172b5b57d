package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestCheckRemediesFollowTheCause: a failed check's remedies speak of a
// race only when it passed and failed while several VUs ran at once; a
// check that failed on every answer (a body nested past the decoder's
// limit, an extraction's missing field) or with one VU got the race
// remedies before ("make the update atomic" for an extract miss).
func TestCheckRemediesFollowTheCause(t *testing.T) {
	cases := []struct {
		name  string
		check string
		vus   int64
		pass  int64 // of 4 runs a second; the rest fail
		race  bool
		want  string // in the remedies
	}{
		{"passes and fails under 3 VUs", "never more coupons than the event has", 3, 3, true, "make the update atomic"},
		{"fails every time with 1 VU", "$[0][0] exists", 1, 0, false, "failed on every answer it ran on"},
		{"an extraction fails every time under 5 VUs", "extract token", 5, 0, false, "the extraction found nothing in any answer"},
		// flow.yaml: a login that gives no token to a quarter of its users is no race
		{"an extraction misses sometimes under 5 VUs", "extract token", 5, 3, false, "compare one it missed with one it read"},
		{"passes and fails with 1 VU", "$.ok exists", 1, 2, false, "with one VU at a time"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}},
				Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}},
				Checks:    []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: c.check}}}
			var secs []sec
			for range 5 {
				secs = append(secs, sec{vus: c.vus, reqs: []reqs{{ep: 0, n: 4, dur: even(5*time.Millisecond, 0)}}, checks: [][2]int64{{c.pass, 4 - c.pass}}})
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
			rem := strings.Join(found.Remedies, "\n")
			if strings.Contains(rem, "make the update atomic") != c.race || !strings.Contains(rem, c.want) {
				t.Errorf("remedies (race wanted: %v; want %q):\n%s", c.race, c.want, rem)
			}
		})
	}
}
