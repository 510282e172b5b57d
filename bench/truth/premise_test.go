package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A GC log as truthapp's JVM writes it with gcLogFlag (Serial collector,
// -Xmx128m): young and full pauses, and lines that are not pauses.
func gcLog(t0 time.Time, pauses ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%dms] Using Serial\n", t0.UnixMilli())
	for i, p := range pauses {
		fmt.Fprintf(&b, "%s\n", strings.Replace(p, "@", fmt.Sprintf("[%dms] GC(%d)", t0.UnixMilli(), i), 1))
	}
	return b.String()
}

func TestReadGCLog(t *testing.T) {
	t0 := time.UnixMilli(1795978500123)
	log := gcLog(t0, "@ Pause Young (Allocation Failure) 40M->9M(123M) 5.123ms",
		"@ Pause Full (Allocation Failure) 118M->80M(123M) 151.5ms", "@ Something else 3ms")
	got, err := readGCLog(strings.NewReader(log))
	if err != nil || len(got) != 2 || got[0].dur != 5123*time.Microsecond || got[1].dur != 151500*time.Microsecond || !got[0].end.Equal(t0) {
		t.Errorf("readGCLog = %+v, %v; want the young and the full pause at %v", got, err, t0)
	}
}

// TestGCShare judges the premise over the hold only: the pauses that
// ended inside it over its wall time.
func TestGCShare(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	// ramp 0-15 s: a 20 ms pause a second (2 %); hold 15-30 s: a 250 ms full
	// pause a second (25 %, a JVM that answers nothing meanwhile); then idle
	var b strings.Builder
	for s := 1; s <= 30; s++ {
		ms := 20.0
		if s > 15 {
			ms = 250
		}
		fmt.Fprintf(&b, "[%dms] GC(%d) Pause Full (Allocation Failure) 120M->100M(123M) %.3fms\n", at(float64(s)).UnixMilli(), s, ms)
	}
	path := filepath.Join(t.TempDir(), "gc.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		path     string
		from, to time.Time
		met      bool
		share    float64
		why      string
	}{
		{"the hold's share, not the ramp's nor the idle tail's", path, at(15.5), at(30.5), true, 0.25, ""},
		{"a share below the premise is not met, and says so", path, at(0.5), at(15.5), false, 0.02, "paused for GC 2.0 %"},
		{"no log measures nothing", filepath.Join(t.TempDir(), "none.log"), at(15.5), at(30.5), false, 0, "not measured"},
	}
	for _, c := range cases {
		p := gcShare(c.path, c.from, c.to, gcPremise)
		if p.Met != c.met || fmt.Sprintf("%.3f", p.Measured) != fmt.Sprintf("%.3f", c.share) || !strings.Contains(p.Why, c.why) {
			t.Errorf("%s: met %v, share %.3f, why %q; want %v, %.3f, %q", c.name, p.Met, p.Measured, p.Why, c.met, c.share, c.why)
		}
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
