package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The step server's paths take their factor of the service time from the
// moment it is set, and its own timing says so: a path at factor 3 is
// timed at three sleeps at least, the others at one, and /_stats forgets
// what it reported.
func TestStepServer(t *testing.T) {
	const sleep = 2 * time.Millisecond
	s := &stepServer{sleep: sleep, factors: map[string]float64{}, took: map[string][]time.Duration{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	get := func(path string) *http.Response {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if resp := get("/_set?/a=3"); resp.StatusCode != http.StatusOK {
		t.Fatalf("/_set: %s", resp.Status)
	}
	for range 3 {
		get("/a").Body.Close()
		get("/b").Body.Close()
	}
	stats := func() map[string]Timing {
		resp := get("/_stats")
		defer resp.Body.Close()
		var out map[string]Timing
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := stats()
	for path, want := range map[string]struct {
		factor float64
		least  time.Duration
	}{"/a": {3, 3 * sleep}, "/b": {1, sleep}} {
		tm := got[path]
		if tm.Requests != 3 || tm.Factor != want.factor || tm.P50 < want.least {
			t.Errorf("%s: %+v, want 3 requests at factor %g, p50 ≥ %s", path, tm, want.factor, want.least)
		}
	}
	if again := stats(); len(again) != 0 {
		t.Errorf("/_stats again: %v, want nothing since the last", again)
	}
	for _, bad := range []string{"/_set?a=2", "/_set?/a=0", "/_set?/a=x"} {
		if resp := get(bad); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %s, want 400", bad, resp.Status)
		}
	}
}

func TestStepServerListensOnLoopbackOnly(t *testing.T) {
	err := serveSteps("192.0.2.1:8080", time.Millisecond, 0)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("serveSteps on 192.0.2.1: %v, want refused (loopback only)", err)
	}
}
