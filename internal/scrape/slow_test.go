package scrape

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestASlowTargetIsScrapedWhole serves an exposition that takes longer
// than the scrape interval to answer, as a saturated JVM does (its scrape
// queues behind its requests): every scrape must land, none time out, the
// target is never asked twice at once, and the next scrape follows an
// overrun at once rather than at the next slot (idle then: 1/2 interval).
func TestASlowTargetIsScrapedWhole(t *testing.T) {
	const interval = 100 * time.Millisecond
	var inFlight, most atomic.Int64
	var mu sync.Mutex
	var ended time.Time
	var idle []time.Duration // between an answer and the next request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		mu.Lock()
		if !ended.IsZero() {
			idle = append(idle, time.Since(ended))
		}
		mu.Unlock()
		select { // the answer takes one and a half intervals
		case <-time.After(3 * interval / 2):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "# TYPE busy gauge\nbusy 7\n")
		mu.Lock()
		ended = time.Now()
		mu.Unlock()
	}))
	defer srv.Close()
	rec := newRecorder(func(r *recorder) bool { return len(r.scraped["jvm"]) >= 4 })
	s, err := New([]Target{{Name: "jvm", URL: srv.URL, Interval: interval}}, t0, rec)
	if err != nil {
		t.Fatal(err)
	}
	clock := &stepClock{}
	s.now = clock.now
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	if fs := rec.failures["jvm"]; len(fs) != 0 {
		t.Errorf("failure reports %+v, want none: a slow answer is an answer", fs)
	}
	for i, set := range rec.scraped["jvm"] {
		if got := set.Find("busy"); len(got) != 1 || got[0].Points[0].Value != 7 {
			t.Errorf("scrape %d: busy %v, want the gauge at 7 (up %v)", i, got, rec.up("jvm"))
		}
	}
	if m := most.Load(); m != 1 {
		t.Errorf("%d scrapes of the target at once, want 1: the slots a slow scrape overran are skipped", m)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(idle)
	if len(idle) < 3 || idle[len(idle)/2] >= interval/4 {
		t.Errorf("the target idled %v between an answer and the next scrape, want a median under %v: an overrun scrape is followed at once", idle, interval/4)
	}
}

// answerClock is a run's clock that the target moves: a second passes
// between two readings, and a slow answer takes the time it says.
type answerClock struct {
	mu sync.Mutex
	t  time.Time
}

// now returns the time and lets a second pass.
func (c *answerClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.t
	c.t = c.t.Add(time.Second)
	return v
}

// answer lets d pass while the target prepares its answer and returns the
// time its values are of.
func (c *answerClock) answer(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// TestRatesAreOfTheAnswers scrapes a counter that rises 10 a second of the
// run's clock from a target whose first answer takes 3 s: the values are
// of when it answered, so every rate is 10/s at the second of the answer.
// Stamped with the time the scrape was asked for, the first rate read
// 2.5/s (10 over the 4 s since the first scrape was asked).
func TestRatesAreOfTheAnswers(t *testing.T) {
	clock := &answerClock{t: t0}
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		took := time.Duration(0)
		if calls.Add(1) == 1 {
			took = 3 * time.Second
		}
		at := clock.answer(took)
		fmt.Fprintf(w, "# TYPE c counter\nc %d\n", 10*int(at.Sub(t0)/time.Second))
	}))
	defer srv.Close()
	rec := newRecorder(func(r *recorder) bool { return len(r.scraped["c"]) >= 3 })
	s, err := New([]Target{{Name: "c", URL: srv.URL, Interval: 10 * time.Millisecond}}, t0, rec)
	if err != nil {
		t.Fatal(err)
	}
	s.now = clock.now
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i, set := range rec.scraped["c"][1:3] {
		cs := set.Find("c")
		if len(cs) != 1 {
			t.Fatalf("scrape %d: %d series c, want 1", i+1, len(cs))
		}
		want := 4 + i // answered at 3 s, 4 s, 5 s
		if p := cs[0].Points[0]; p.Sec != want || p.Value != 10 {
			t.Errorf("scrape %d: c at %ds = %v/s, want %ds and 10/s", i+1, p.Sec, p.Value, want)
		}
	}
}
