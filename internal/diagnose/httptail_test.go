package diagnose

import (
	"math"
	"testing"
	"time"
)

func TestTraceHTTPTail(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    func(t *testing.T) Input
		title string // "" when it must stay silent
	}{
		{"a dependency answering in 300ms", externalCall(300 * time.Millisecond), "p95 of GET /apps/{id}/price is "},
		{"a dependency answering in 30ms", externalCall(30 * time.Millisecond), "p95 of GET /apps/{id}/price is "},
		{"a fast dependency, a third of the time", externalCall(time.Millisecond), ""},
		{"a slow dependency, the tail half of it stalls in the service", stalledTail(30*time.Millisecond, 30*time.Millisecond), "p95 of GET /apps/{id}/price is "},
		{"a fast dependency, the tail stalls in the service", stalledTail(2*time.Millisecond, 30*time.Millisecond), ""},
		{"a tail in the database", oneHeavyQuery, ""},
		{"N+1 queries", nPlusOneRun(20, 4*time.Millisecond), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			f, ok := oneOrNone(t, Diagnose(in), KindTraceHTTPTail, tc.title, " in calls to 127.0.0.1")
			if !ok {
				return
			}
			// The share is the host's part of the tail's parts, from the breakdown.
			tail := in.Traces[0].Tail
			share := figureWhat(t, f, "share of the slow tail's time in calls to the host")
			if want := tail.Share(tail.Parts[0]); tail.Parts[0].Name != "127.0.0.1" || math.Abs(share.Value-want) > 1e-9 || share.Value < httpTailHalf {
				t.Errorf("share %v, the tail's largest part %+v is %v of it", share.Value, tail.Parts[0], want)
			}
		})
	}
}
