package metrics

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestErrorSamplesBounded: a target that says something different for each
// of many failures still leaves 3 messages per endpoint and kind, in a
// second and over the run, the rest counted as others.
func TestErrorSamplesBounded(t *testing.T) {
	rec := NewRecorder(testLayout(), 4)
	run := NewRun(testLayout())
	const perSec, secs = 20000, 3
	for sec := range secs {
		for i := range perSec {
			r := sample.Request{Endpoint: 1, End: time.Duration(sec)*time.Second + time.Millisecond, Duration: time.Millisecond,
				Status: 500, Kind: sample.HTTP5xx, Err: fmt.Sprintf("500 Internal Server Error: request %d-%d failed", sec, i)}
			rec.Sink(i).Request(&r)
		}
		snap := rec.Collect(sec)
		if n := len(snap.Endpoints[1].Errors); n > MaxErrorSamples*4 { // each shard's 3, merged to 3 in Collect
			t.Fatalf("second %d kept %d samples", sec, n)
		}
		run.Add(snap)
	}
	g := run.Endpoints[1].Errors[0]
	tests := []struct {
		name      string
		got, want any
	}{
		{"samples kept", len(g.Samples), 3},
		{"count", g.Count, int64(perSec * secs)},
		{"others", g.Others(), int64(perSec*secs - 3)},
		{"first second of the first sample", g.Samples[0].First, 0},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestErrorSamplesMergeAcrossAgents: two agents' seconds, sent over the
// wire as snapshots, merge into one bounded sample per endpoint and kind
// whose counts add and whose first second is the earliest either saw.
func TestErrorSamplesMergeAcrossAgents(t *testing.T) {
	hikari := "500 Internal Server Error: HikariPool-1 - Connection is not available, request timed out after 30000ms"
	type said struct {
		msg string
		n   int64
	}
	agentSecond := func(sec int, msgs ...said) *Snapshot {
		s := NewSnapshot(sec, testLayout())
		e := &s.Endpoints[0]
		for _, m := range msgs {
			m, n := m.msg, m.n
			e.Requests += n
			e.Failures[sample.HTTP5xx] += n
			e.Errors = append(e.Errors, ErrorSample{Kind: sample.HTTP5xx, Status: 500, Message: m, Count: n})
		}
		e.Duration, e.Waiting = histOf(1), histOf(1)
		return wire(t, s)
	}
	a := []*Snapshot{agentSecond(0, said{"500 Internal Server Error", 4}), agentSecond(1, said{hikari, 10})}
	b := []*Snapshot{agentSecond(0, said{"500 x: a", 1}, said{"500 x: b", 1}, said{"500 x: c", 1}),
		agentSecond(1, said{hikari, 300}, said{"500 x: d", 2})}
	run := NewRun(testLayout())
	for sec := range 2 {
		merged := NewSnapshot(sec, testLayout())
		merged.Merge(a[sec])
		merged.Merge(b[sec])
		if n := len(merged.Endpoints[0].Errors); n > MaxErrorSamples {
			t.Fatalf("second %d merged to %d samples; want at most %d", sec, n, MaxErrorSamples)
		}
		run.Add(merged)
	}
	g := run.Endpoints[0].Errors[0]
	var kept *ErrorSample
	for i := range g.Samples {
		if g.Samples[i].Message == hikari {
			kept = &g.Samples[i]
		}
	}
	switch {
	case len(g.Samples) > maxGroupSamples:
		t.Errorf("the run kept %d samples; want at most %d", len(g.Samples), maxGroupSamples)
	case g.Count != 319:
		t.Errorf("count %d; want 319", g.Count)
	case kept == nil || kept.Count != 310 || kept.First != 1:
		t.Errorf("the message both agents said 310 times from second 1 was not kept as such: %+v", g.Samples)
	case g.Others() != 319-4-310-2:
		t.Errorf("others %d; want %d (%+v)", g.Others(), 319-4-310-2, g.Samples)
	}
	// One agent's run: the message is kept with its own first second.
	run2 := NewRun(testLayout())
	run2.Add(a[0])
	run2.Add(a[1])
	g2 := run2.Endpoints[0].Errors[0]
	if len(g2.Samples) != 2 || g2.Samples[1].Message != hikari || g2.Samples[1].First != 1 || g2.Samples[1].Count != 10 {
		t.Errorf("one agent's run: %+v; want the Hikari message first seen in second 1, 10 times", g2.Samples)
	}
}

// wire is s after a round trip through the snapshot codec, as an agent sends it.
func wire(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var out Snapshot
	if err := out.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &out
}
