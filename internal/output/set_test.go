package output

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestSetDropsCountedNeverWaits offers 20 seconds to a store that answers,
// one that stalls until the test ends, and one that answers 500: Offer
// returns every time, the healthy store gets every second once, and the
// others' losses are counted exactly, with one warning each that names the
// output without its credentials.
func TestSetDropsCountedNeverWaits(t *testing.T) {
	release := make(chan struct{})
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer stalled.Close()
	defer close(release)
	var got500 atomic.Int64
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got500.Add(1)
		http.Error(w, "overloaded", http.StatusInternalServerError)
	}))
	defer failing.Close()
	rc := receiver{got: make(chan struct{}, 100)}
	healthy := rc.serve(t, nil)

	outs := []plan.Output{
		{Kind: plan.OutInfluxDB, URL: healthy.URL + "/write?db=k6"},
		{Kind: plan.OutInfluxDB, URL: stalled.URL + "/write?db=k6&u=me&p=s3cret"},
		{Kind: plan.OutPrometheusRW, URL: failing.URL + "/api/v1/write"},
	}
	var mu sync.Mutex
	var warnings []string
	layout := metricstest.Layout(2)
	set, err := New(Config{Outputs: outs, RunID: "r", Layout: layout, Start: testStart, Queue: 4, Timeout: time.Minute, Flush: 300 * time.Millisecond,
		Warn: func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	const secs = 20
	metricstest.Seconds(layout, secs, func(s *metrics.Snapshot) {
		set.Offer(s)
		select { // a store that keeps up: the next second comes once it has this one, as in a run
		case <-rc.got:
		case <-time.After(time.Minute):
			t.Fatalf("the healthy store did not get second %d", s.Second)
		}
	})
	res := set.Close()

	if len(res) != 3 {
		t.Fatalf("%d results, want 3", len(res))
	}
	for i, r := range res {
		if r.Offered != secs || r.Sent+r.Dropped() != secs {
			t.Errorf("%s: offered %d, sent %d + dropped %d; want %d offered, all accounted for", r.Output, r.Offered, r.Sent, r.Dropped(), secs)
		}
		if i > 0 && r.Sent != 0 {
			t.Errorf("%s: %d seconds sent to a store that took none", r.Output, r.Sent)
		}
	}
	if res[0].Sent != secs || res[0].Dropped() != 0 {
		t.Errorf("healthy store: %d sent, %d dropped; want all %d sent", res[0].Sent, res[0].Dropped(), secs)
	}
	seconds := map[time.Time]int{}
	for _, b := range rc.check(t) {
		for _, p := range decodeLines(t, b) {
			if p.measurement == "iterations" {
				seconds[p.time]++
			}
		}
	}
	if len(seconds) != secs {
		t.Errorf("the healthy store got %d distinct seconds, want %d", len(seconds), secs)
	}
	for ts, n := range seconds {
		if n != 1 {
			t.Errorf("second %v arrived %d times", ts, n)
		}
	}
	if res[1].QueueFull < secs-4-maxBatch {
		t.Errorf("stalled store: %d dropped with the queue full, want at least %d (the rest wait in a queue of 4 or one batch)", res[1].QueueFull, secs-4-maxBatch)
	}
	if res[2].Failed == 0 || !strings.Contains(res[2].LastErr, "500") || got500.Load() == 0 {
		t.Errorf("failing store: %d failed (last %q), %d requests seen", res[2].Failed, res[2].LastErr, got500.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(warnings, "\n")
	if strings.Contains(all, "s3cret") || !strings.Contains(all, "p="+plan.RedactedInURL) {
		t.Errorf("warnings show the password, or not the output:\n%s", all)
	}
	lines := func(url string) (n int) {
		for _, w := range warnings {
			if strings.Contains(w, url) {
				n++
			}
		}
		return n
	}
	// at most one warning per output and cause (queue full, write failed)
	if n := lines(stalled.URL); n != 2 || lines(failing.URL) < 1 || lines(failing.URL) > 2 || lines(healthy.URL) != 0 {
		t.Errorf("want 2 warnings for the stalled store (queue full, cut off), 1 or 2 for the failing one, none for the healthy one:\n%s", all)
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"overloaded\n", "overloaded"},
		{"<html>\n  <body>\n\t<h1>Error</h1>", "<html> <body> <h1>Error</h1>"},
		{strings.Repeat("é", 130), strings.Repeat("é", 120) + "…"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in, 120); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
