package main

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestClientSendsTheRateAndTheMix checks the harness's own client against
// an in-process server's count: every request sent arrives, each
// scenario gets its share, and failures are the server's statuses.
func TestClientSendsTheRateAndTheMix(t *testing.T) {
	var a, b, failed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/a/"):
			a.Add(1)
		case r.URL.Path == "/b" && r.Header.Get("X-Variant") == "v":
			b.Add(1)
			if b.Load()%10 == 0 {
				failed.Add(1)
				w.WriteHeader(503)
			}
		}
	}))
	defer srv.Close()
	scs := []Scenario{
		{Name: "a", Share: 0.75, Endpoint: appEndpoint("", 100)},
		{Name: "b", Share: 0.25, Endpoint: Endpoint{Method: "GET", Route: "/b", Gen: func(*rand.Rand) string { return "/b" },
			Headers: map[string]string{"X-Variant": "v"}}},
	}
	scs[0].Endpoint.Gen = func(r *rand.Rand) string { return "/a/" + string(rune('0'+idIn(r, 9))) }
	c := NewClient(srv.URL, 5*time.Second)
	defer c.Close()
	res := c.Step(context.Background(), scs, 200, time.Second, 7)
	if res.Sent != 200 || a.Load() != 150 || b.Load() != 50 {
		t.Errorf("sent %d, server saw a %d and b %d; want 200 = 150 + 50", res.Sent, a.Load(), b.Load())
	}
	if res.Failed != failed.Load() || res.OK != 200-failed.Load() || res.Statuses[503] != failed.Load() {
		t.Errorf("client failed %d ok %d statuses %v; the server failed %d", res.Failed, res.OK, res.Statuses, failed.Load())
	}
	if r := res.ByRoute["/b"]; r.Sent != 50 || r.Failed != failed.Load() || res.ByRoute["/apps/{id}"].Sent != 150 {
		t.Errorf("by route %+v", res.ByRoute)
	}
	if res.P95 <= 0 || res.P95 < res.P50 {
		t.Errorf("p50 %v p95 %v", res.P50, res.P95)
	}
}

func TestQuantileIsTheNearestRank(t *testing.T) {
	ds := make([]time.Duration, 100)
	for i := range ds {
		ds[i] = time.Duration(i+1) * time.Millisecond
	}
	for p, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.95: 95 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond} {
		if got := quantile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p*100, got, want)
		}
	}
	if quantile(nil, 0.95) != 0 {
		t.Error("an empty sample has a quantile")
	}
}

func TestPickerKeepsTheMixInEveryStretch(t *testing.T) {
	p := newPicker([]Scenario{{Share: 0.5}, {Share: 0.3}, {Share: 0.2}})
	counts := make([]int, 3)
	for i := 0; i < 10; i++ {
		counts[p.next()]++
	}
	if counts[0] != 5 || counts[1] != 3 || counts[2] != 2 {
		t.Errorf("10 picks gave %v, want [5 3 2]", counts)
	}
}
