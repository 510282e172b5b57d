package diagnose

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestNPlusOne(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    func(t *testing.T) Input
		title string // "" when it must stay silent
	}{
		{"a lookup per review (21 calls a request)", nPlusOneRun(20, 4*time.Millisecond),
			"GET /apps/{id}/reviews: 21 calls of select a.id, a.name from author a where a.id = ? per request, "},
		{"a saturated service: its requests wait, the lookups are most of the database's time", nPlusOneRun(20, 100*time.Millisecond),
			"GET /apps/{id}/reviews: 21 calls of select a.id, a.name from author a where a.id = ? per request, "},
		{"lookups a twentieth of the time", nPlusOneRun(20, 250*time.Millisecond), ""},
		{"nine lookups a request (fewer than ten on average)", nPlusOneRun(8, 4*time.Millisecond), ""},
		{"one heavy query: trace-db-tail's, not N+1", oneHeavyQuery, ""},
		{"five different statements once each", fewQueries, ""},
		{"a slow external call", externalCall(300e6), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			f, ok := oneOrNone(t, Diagnose(in), KindNPlusOne, tc.title, " of its database time — N+1 queries")
			if !ok {
				return
			}
			// The share is what the traces say: the lookups' time over the requests' time.
			b := in.Traces[0]
			var lookups, total float64
			for _, s := range b.Statements {
				if strings.Contains(s.Name, "from author") {
					lookups = s.Total.Seconds()
				}
			}
			total = b.All.Duration.Seconds() * float64(b.All.Traces)
			share := figureWhat(t, f, "share of the requests' time in the statements named")
			if share.Unit != UnitFraction || share.Value < nPlusOneFloor || share.Value > 1 || math.Abs(share.Value-lookups/total) > 0.01 {
				t.Errorf("share %v; the lookups took %v of the requests' time", share.Value, lookups/total)
			}
		})
	}
}
