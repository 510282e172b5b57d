package capacity

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestStarvedTargetIsRunAgain: a step whose diagnosis says the host's
// other processes took the target's CPU (trial A40: the app used 16.7 % of
// the host's CPUs, other processes 83.3 %, and its mean latency of 2.45 s
// was judged "FAIL, the target's") is not judged but run again, however
// far past the limit its latency, as a busy generator's is; a pass on it
// stands; a host that stays that busy ends the search not determined.
func TestStarvedTargetIsRunAgain(t *testing.T) {
	server := queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond}
	cfg := Config{StartRate: 100, Hold: 30 * time.Second, LatencyLimit: 50 * time.Millisecond}
	quiet, err := Search(context.Background(), cfg, server)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		host    *busyHost
		stop    StopReason
		highest float64
		detail  string // in StopDetail
	}{
		{"starved on the first run of each rate: the search ends where a quiet one does", &busyHost{Runner: server, kind: "starved", first: true},
			quiet.Stop, quiet.Highest, ""},
		{"starved at every run from 150/s: not determined", &busyHost{Runner: server, kind: "starved", from: 150},
			HostBusy, 100, "the target's host was too busy for it to serve 150 iterations/s: busy on each of 3 attempts"},
		{"a pass on a starved target stands, its failure is run again", &busyHost{Runner: server, kind: "starved", from: 100, keepVerdict: true},
			HostBusy, quiet.Highest, "the target's host was too busy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, err := Search(context.Background(), cfg, tc.host)
				if err != nil {
					t.Fatal(err)
				}
				if r.Stop != tc.stop || r.Highest != tc.highest || !strings.Contains(r.StopDetail, tc.detail) {
					t.Fatalf("stop %s (%s), highest %v; want %s (%q), %v", r.Stop, r.StopDetail, r.Highest, tc.stop, tc.detail, tc.highest)
				}
				for i, st := range r.Steps {
					if st.Starved == "" {
						continue
					}
					if !strings.Contains(st.Busy, "the target was starved: App CPU taken by other processes") || st.Stands != "" || st.Judged != st.Passed {
						t.Errorf("run %d (%v/s, passed %v): busy %q, stands %q, judged %v; want judged only when passed, never the target's failure",
							i+1, st.Rate, st.Passed, st.Busy, st.Stands, st.Judged)
					}
				}
			})
		})
	}
}
