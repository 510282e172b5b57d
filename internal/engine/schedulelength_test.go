package engine

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestOpenModelLastsItsPlannedLength: a schedule whose last arrival comes
// early (1/s for 1s: one, at 0:00) still lasts its planned second, as k6's
// does, so the run's rate is over its length, not over one request's span.
func TestOpenModelLastsItsPlannedLength(t *testing.T) {
	srv, hits := okServer(t, 0)
	const planned = time.Second
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 1, Stages: []plan.Stage{{Duration: planned, Target: 1}}, PreAllocatedVUs: 1, MaxVUs: 1}
	begin := time.Now()
	rec, err := run(t, plan.Whole, scenario(load, get(srv.URL)))
	took := time.Since(begin)
	if err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 1 || len(rec.reqs) != 1 {
		t.Fatalf("the server saw %d requests and the recorder %d, want 1 each", n, len(rec.reqs))
	}
	if took < planned*9/10 { // a lower bound: a busy machine only makes it longer
		t.Fatalf("the run ended after %v, before its planned %v", took, planned)
	}
}
