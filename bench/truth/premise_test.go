package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An excerpt of truthapp's /actuator/prometheus under the gc case: the
// Serial collector's minor and major pauses are summed.
const actuatorGC = `# HELP jvm_gc_pause_seconds Time spent in GC pause
# TYPE jvm_gc_pause_seconds summary
jvm_gc_pause_seconds_count{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 812
jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 3.5
jvm_gc_pause_seconds_count{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"} 40
jvm_gc_pause_seconds_sum{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"} 4.25
# HELP jvm_gc_pause_seconds_max Time spent in GC pause
jvm_gc_pause_seconds_max{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 0.02
`

func TestSumPause(t *testing.T) {
	got, err := sumPause(strings.NewReader(actuatorGC))
	if err != nil || got != 7.75 {
		t.Errorf("sumPause = %v, %v; want 7.75 (minor + major, not the max)", got, err)
	}
	if _, err := sumPause(strings.NewReader("http_server_requests_seconds_count{uri=\"/\"} 3\n")); err == nil {
		t.Error("an exposition without GC pauses read as 0 s of GC: want an error (not a JVM)")
	}
}

// TestGCShare judges the premise over the hold only, from the pause
// counter's growth between the first and last scrapes inside it.
func TestGCShare(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	// ramp 0-15 s at 2 % paused, hold 15-30 s at 25 %, then idle
	var samples []pauseSample
	pause := 0.0
	for s := 0; s <= 40; s++ {
		samples = append(samples, pauseSample{at: at(float64(s)), pause: pause})
		switch {
		case s < 15:
			pause += 0.02
		case s < 30:
			pause += 0.25
		}
	}
	cases := []struct {
		name     string
		samples  []pauseSample
		from, to time.Time
		met      bool
		share    float64
		why      string
	}{
		{"the hold's share, not the ramp's nor the idle tail's", samples, at(15), at(30), true, 0.25, ""},
		{"a share below the premise is not met, and says so", samples, at(0), at(15), false, 0.02, "paused for GC 2.0 %"},
		{"one scrape inside the hold and none after measures nothing", samples[:16], at(15), at(30), false, 0, "not measured: 1 scrapes"},
		// a JVM in a GC storm answered at 0:10 and at 0:36 only: the 26 s
		// around the hold (5 at 2 %, 15 at 25 %, 6 idle) read 14.8 %, less than the hold's 25 %
		{"no scrape answered inside the hold: the two around it bracket it", []pauseSample{samples[10], samples[36]}, at(15), at(30), true, 0.148, ""},
	}
	for _, c := range cases {
		m := &gcMeter{samples: c.samples}
		p := m.Share(c.from, c.to, gcPremise)
		if c.name[:2] == "no" && !p.Bracket {
			t.Errorf("%s: not marked bracketed", c.name)
		}
		if p.Met != c.met || fmt.Sprintf("%.3f", p.Measured) != fmt.Sprintf("%.3f", c.share) || !strings.Contains(p.Why, c.why) {
			t.Errorf("%s: met %v, share %.3f, why %q; want %v, %.3f, %q", c.name, p.Met, p.Measured, p.Why, c.met, c.share, c.why)
		}
	}
}

// TestWatchGCScrapesAJVM reads a live exposition each second until stopped.
func TestWatchGCScrapesAJVM(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		k := n.Add(1)
		fmt.Fprintf(w, "jvm_gc_pause_seconds_sum{gc=\"Copy\"} %d\n", k)
	}))
	defer srv.Close()
	// the first scrape goes at once, the second a second later: stop waits
	// for an answer to a scrape taken after half a second, the second one
	after := time.Now().Add(500 * time.Millisecond)
	stop := watchGC(context.Background(), srv.URL, time.Minute)
	m := stop(after, 10*time.Second)
	if len(m.samples) < 2 || m.samples[1].pause <= m.samples[0].pause {
		t.Fatalf("samples %+v: want two readings of a growing counter", m.samples)
	}
}

// TestPremiseNotMetIsItsOwnOutcome: a gc run whose JVM barely paused is
// neither a recall miss nor a busy host's unjudged run; with no other run,
// the rule's recall is "not measured", naming the premise.
func TestPremiseNotMetIsItsOwnOutcome(t *testing.T) {
	gc := Case{ID: "gc", Must: rules("gc-pressure"), GCShare: gcPremise}
	noGC := RunRecord{Case: "gc", OtherDuring: Busy{Mean: 0.03}}
	judge(&noGC, 0.5, "the JVM paused for GC 3.5 % of the hold's wall time")
	busy := RunRecord{Case: "gc", OtherDuring: Busy{Mean: 0.9}}
	judge(&busy, 0.5, "")
	hit := RunRecord{Case: "gc", OtherDuring: Busy{Mean: 0.03}, Fired: []string{"gc-pressure"}}
	judge(&hit, 0.5, "")
	if noGC.Judged || noGC.NoPremise == "" || busy.Judged || busy.NoPremise != "" || !hit.Judged {
		t.Fatalf("judge: %+v / %+v / %+v", noGC, busy, hit)
	}
	rs := scoreRules([]Case{gc}, []RunRecord{noGC, busy, hit})
	if len(rs) != 1 || rs[0].MustRuns != 1 || rs[0].MustHits != 1 || rs[0].NoPremise != 1 || rs[0].Unjudged != 1 || len(rs[0].Misses) != 0 {
		t.Errorf("with one hit: %+v; want recall 1 over 1 judged run, 1 premise not met, 1 unjudged", rs)
	}
	rs = scoreRules([]Case{gc}, []RunRecord{noGC})
	if len(rs) != 1 || rs[0].MustRuns != 0 || len(rs[0].Misses) != 1 || !strings.Contains(rs[0].Misses[0], "premise not met") {
		t.Errorf("premise never met: %+v; want recall not measured, naming the premise (never a recall of 0)", rs)
	}
	cs := scoreCases([]Case{gc}, []RunRecord{noGC, busy, hit})
	if cs[0].NoPremise != 1 || cs[0].Judged != 1 || cs[0].MustMet != 1 {
		t.Errorf("case row %+v", cs[0])
	}
	if b := scoreBusy([]RunRecord{noGC, busy}); b.Unjudged != 1 {
		t.Errorf("busy agreement counts %d runs; a run without its premise is not a busy host's", b.Unjudged)
	}
}
