package historyrun

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
)

// --fail-on-change does not pass a test whose newest run counts for no
// change point (its generator disturbed it, or it did not complete): it
// says so and exits 99, as compare fails a gate it cannot judge.
func TestGateDoesNotPassANewestRunLeftOut(t *testing.T) {
	for _, tc := range []struct {
		name      string
		disturbed string
		status    string
		code      int
		says      string
	}{
		{"a quiet newest run", "", "completed", app.ExitOK, "no change of p(95) for the worse"},
		{"a disturbed newest run", "generator-host-busy", "completed", app.ExitThresholdFailed, "its own diagnosis found generator-host-busy"},
		{"an interrupted newest run", "", "interrupted", app.ExitThresholdFailed, "it did not complete (interrupted)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []history.Run
			for i := range 8 {
				r := history.Run{ID: fmt.Sprintf("r%02d", i), Host: "h", Name: "shop", Status: "completed", Shape: "10/s", ShapeID: "s",
					Start:     time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC),
					Endpoints: []history.Endpoint{{Name: "GET /", Requests: 100, P50: 5 * time.Millisecond, P95: time.Duration(10+i%2) * time.Millisecond, P99: 12 * time.Millisecond}}}
				if i == 7 {
					r.Disturbed, r.Status = tc.disturbed, tc.status
				}
				runs = append(runs, r)
			}
			var out strings.Builder
			f := history.P95
			code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, Out: &out}, history.Group(runs, history.DefaultMethod))
			if code != tc.code || !strings.Contains(out.String(), tc.says) {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, tc.code, tc.says, out.String())
			}
		})
	}
}
