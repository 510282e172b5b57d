package historyrun

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
)

// TestGateReplayOverNoChange is trial B39's no-change series of 20 runs
// (p95 in ms, oldest first; 0: left out, its generator's host busy): the
// gate replayed after each run never fails it. Judged at one-sided 5 %,
// the few-runs rule failed run 8 (+7.8 % against the 4 analysed runs
// before it, prediction t = 2.5 > 2.4).
func TestGateReplayOverNoChange(t *testing.T) {
	p95s := []float64{32.7, 0, 0, 33.7, 34.6, 32.6, 0, 36.0, 37.5, 0, 31.8, 0, 35.0, 0, 0, 0, 35.7, 0, 0, 0}
	var runs []history.Run
	for i, ms := range p95s {
		r := runsOf(ms / 2)[0]
		r.ID, r.Start = fmt.Sprintf("r%02d", i), time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC)
		if ms == 0 {
			r = runsOf(20)[0]
			r.ID, r.Start, r.Disturbed = fmt.Sprintf("r%02d", i), time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC), "generator-host-busy"
		}
		runs = append(runs, r)
		var out strings.Builder
		f := history.P95
		if code := gateChanges(HistoryConfig{FailOn: &f, Within: 5, Out: &out}, history.Group(runs, history.DefaultMethod)); code == app.ExitThresholdFailed {
			t.Errorf("after run %d: exit %d on a no-change series:\n%s", i+1, code, out.String())
		}
	}
}
