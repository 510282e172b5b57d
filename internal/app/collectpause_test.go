package app

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestCollectorPausesBetweenChunks holds the collector's second to short
// chunks: it pauses between its steps (snapshot, totals, run.db, the
// generator's own series, the dashboard), and within them once more for
// every busy endpoint (its histograms merged, reset, added to the totals
// and encoded), so the longest stretch without a pause is one endpoint's
// work however many there are. The second is still kept whole.
func TestCollectorPausesBetweenChunks(t *testing.T) {
	pausesFor := func(t *testing.T, endpoints int) int64 {
		var steps strings.Builder
		for i := range endpoints {
			fmt.Fprintf(&steps, "      - get: /e%d\n", i)
		}
		p := parseTest(t, "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n"+steps.String())
		var undo cleanups
		defer undo.run()
		r, err := open(RunConfig{Plan: p, ResultsDir: t.TempDir(), Out: io.Discard, Quiet: true,
			Dashboard: DashboardConfig{Addr: "127.0.0.1:0"}}, &undo)
		if err != nil {
			t.Fatal(err)
		}
		var pauses atomic.Int64
		r.pauseHook = func() { pauses.Add(1) }
		for i := range endpoints {
			r.rec.Sink(0).Request(&sample.Request{Endpoint: int32(i), End: time.Second / 2, Duration: time.Millisecond, Status: 200})
		}
		r.second(0)
		if r.kept != 1 || len(r.run.Series) != 1 || r.run.Series[0].Requests != int64(endpoints) {
			t.Fatalf("%d endpoints: run.db keeps %d seconds, the run %d with %+v; want second 0 with %d requests",
				endpoints, r.kept, len(r.run.Series), r.run.Series, endpoints)
		}
		return pauses.Load()
	}
	one, many := pausesFor(t, 1), pausesFor(t, 30)
	// Between the steps, besides those for the endpoint: taking, totals, run.db, samples, own series, dashboard.
	if one < 10 {
		t.Errorf("one endpoint: the collector paused %d times in a second, want at least 10 (between its steps)", one)
	}
	// Merge, reset, add to the totals and encode: four chunks per busy endpoint.
	if extra := many - one; extra < 4*29 {
		t.Errorf("30 endpoints paused %d times more than one, want at least %d (4 per endpoint)", extra, 4*29)
	}
}

// TestPacerPausesAfterWorkAndWithinItsAllowance drives the pacer with a
// fake clock: chunk boundaries pause once pauseAfter of work has passed
// since the last pause, and a second's pauses stop once they took
// pausesAtMost (a 1 µs sleep on an idle P lasts a millisecond).
func TestPacerPausesAfterWorkAndWithinItsAllowance(t *testing.T) {
	for _, tt := range []struct {
		name       string
		work, nap  time.Duration // between two chunk boundaries; one pause's length
		boundaries int
		want       int // pauses taken
	}{
		{"short chunks share a pause", pauseAfter / 4, time.Microsecond, 40, 10},
		{"long chunks each pause", 2 * pauseAfter, time.Microsecond, 40, 40},
		{"an idle P's long naps stop at the allowance", pauseAfter, time.Millisecond, 1000, int(pausesAtMost / time.Millisecond)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var clock time.Duration
			p := &pacer{now: func() time.Duration { return clock }}
			naps := 0
			p.sleep = func() { naps++; clock += tt.nap }
			p.newSecond()
			for range tt.boundaries {
				clock += tt.work
				p.pause()
			}
			if naps != tt.want {
				t.Errorf("%d pauses at %d chunk boundaries, want %d", naps, tt.boundaries, tt.want)
			}
			p.newSecond() // the next second has its allowance again
			clock += tt.work + pauseAfter
			if p.pause(); naps != tt.want+1 {
				t.Errorf("no pause in the next second")
			}
		})
	}
}
