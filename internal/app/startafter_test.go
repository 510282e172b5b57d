package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/store"
)

// TestStartIsFixedAfterPreparing: a run whose preparation is slow (run.db
// taking longer to make than the planned start and the whole schedule
// after it) still runs its whole schedule from its start, since the start
// is fixed once everything is prepared. The target's own clock and count
// check it: every request after the start, the last one late in the
// schedule, and for the open model exactly the iterations it plans.
func TestStartIsFixedAfterPreparing(t *testing.T) {
	cases := []struct {
		name, load string
		want       int // requests the target must see; 0: at least one
	}{
		{"closed model", "vus: 1\n    duration: 1s", 0},
		{"open model", "rate: 20\n    duration: 1s\n    max_vus: 20", 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []time.Time
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, time.Now())
				mu.Unlock()
			}))
			defer srv.Close()
			p := parseTest(t, fmt.Sprintf("base_url: %s\nscenarios:\n  s:\n    %s\n    flow:\n      - get: /\n", srv.URL, c.load))
			began := time.Now()
			var prepared time.Time
			// A slow moment, not a synchronisation: preparing outlasts what a
			// start fixed when it began would have left of the schedule.
			slow := func() {
				<-time.After(time.Until(began.Add(engine.PrepareLead + plannedLength(p) + 200*time.Millisecond)))
				prepared = time.Now()
			}
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: t.TempDir(), Out: &out, Quiet: true, preparing: slow})
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, out.String())
			}
			rd, err := store.Open(filepath.Join(res.Dir, "run.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			start := rd.Meta().Start
			if start.Before(prepared) {
				t.Fatalf("the run started %v before preparing ended", prepared.Sub(start))
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) == 0 || (c.want > 0 && len(seen) != c.want) {
				t.Fatalf("the target saw %d requests, want %d (0: some)\n%s", len(seen), c.want, out.String())
			}
			if seen[0].Before(start) {
				t.Errorf("the first request came %v before the run's start", start.Sub(seen[0]))
			}
			if last := seen[len(seen)-1].Sub(start); last < plannedLength(p)/2 {
				t.Errorf("the last request came %v after the start, want the schedule's second half (of %v)", last, plannedLength(p))
			}
		})
	}
}
