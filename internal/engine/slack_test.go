package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

func TestStartAtWaitsOnlyBeyondTheSlack(t *testing.T) {
	a := newAlarm()
	defer a.close()
	tests := []struct {
		name  string
		ahead time.Duration // how far ahead the arrival is due
		slack time.Duration
		early bool // starts now, before it is due
	}{
		{"within the slack starts now", time.Second, 2 * time.Second, true},
		{"no slack waits", 30 * time.Millisecond, 0, false},
		{"beyond the slack waits", 30 * time.Millisecond, 10 * time.Millisecond, false},
		{"already due", -time.Millisecond, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := time.Now().Add(tt.ahead)
			if !startAt(context.Background(), a, at, tt.slack) {
				t.Fatal("startAt = false with a live context")
			}
			if early := time.Now().Before(at); early != tt.early {
				t.Fatalf("returned %v before it was due; want early=%v", time.Until(at), tt.early)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if startAt(ctx, a, time.Now().Add(time.Millisecond), time.Second) {
		t.Fatal("startAt = true on an ended context")
	}
}

// lagRecorder is a testRecorder that also keeps the smallest start lag
// and counts the early starts (a lag of 0: started with the arrival before
// it, within the slack).
type lagRecorder struct {
	*testRecorder
	mu     sync.Mutex
	minLag time.Duration
	early  int
}

func (r *lagRecorder) Sink(int) sample.Sink { return r }
func (r *lagRecorder) Lag(id int32, at, lag time.Duration) {
	r.testRecorder.Lag(id, at, lag)
	r.mu.Lock()
	r.minLag = min(r.minLag, lag)
	if lag == 0 {
		r.early++
	}
	r.mu.Unlock()
}

func TestEarlyStartsAreTimedFromWhenTheyStarted(t *testing.T) {
	const service = 3 * time.Millisecond
	srv, hits := okServer(t, service)
	// 2,000/s is one arrival every 500µs: with a 2ms slack most start early,
	// in groups. Timed from their intended start, they would read up to 2ms
	// shorter than the server's own 3ms.
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 2000, Stages: []plan.Stage{{Duration: time.Second, Target: 2000}},
		PreAllocatedVUs: 50, MaxVUs: 400, ArrivalSlack: 2 * time.Millisecond}
	rec := &lagRecorder{testRecorder: newTestRecorder(), minLag: time.Hour}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := New(&plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(srv.URL))}}, rec, Options{}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	// A busy host drops some (under -race at load 20, three quarters:
	// other tests hold the rate); every arrival ran or was dropped, every
	// one that ran is recorded once, and one started early at least (under
	// -race at load 20, 20-40 did; quiet, about 700).
	t.Logf("%d requests, %d started early, %d dropped", len(rec.reqs), rec.early, rec.dropped)
	if n := len(rec.reqs); n+rec.dropped != 2000 || int64(n) != hits.Load() || rec.early == 0 {
		t.Fatalf("%d requests recorded, %d seen by the server, %d dropped, %d started early; want 2,000 in all, equal, and one early at least",
			n, hits.Load(), rec.dropped, rec.early)
	}
	for _, q := range rec.reqs {
		if q.Duration < service {
			t.Fatalf("a request read %v against a server that takes %v: an early start was timed from its intended start", q.Duration, service)
		}
	}
}

func TestStartLagIsNeverNegative(t *testing.T) {
	srv, _ := okServer(t, 0)
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 2000, Stages: []plan.Stage{{Duration: 500 * time.Millisecond, Target: 2000}},
		PreAllocatedVUs: 20, MaxVUs: 200, ArrivalSlack: 2 * time.Millisecond}
	rec := &lagRecorder{testRecorder: newTestRecorder(), minLag: time.Hour}
	p := &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(srv.URL))}}
	p.Scenarios[0].ID = 0
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := New(p, rec, Options{}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if rec.minLag < 0 {
		t.Fatalf("a start lag of %v: an early start reported as negative lag", rec.minLag)
	}
	// A busy host drops some; every arrival ran or was dropped, and one
	// started early at least (under -race at load 20, 10-40 did; quiet,
	// about 750).
	t.Logf("%d requests, %d started early, %d dropped", len(rec.reqs), rec.early, rec.dropped)
	if rec.lags != len(rec.reqs) || rec.lags+rec.dropped != 1000 || rec.early == 0 {
		t.Fatalf("%d lags recorded for %d requests, %d dropped, %d started early; want 1,000 arrivals in all, and one early at least",
			rec.lags, len(rec.reqs), rec.dropped, rec.early)
	}
}
