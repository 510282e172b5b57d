package metrics

import (
	"fmt"
	"testing"
	"time"
)

// TestNotSentTravels checks that iterations a request not sent ended reach
// the run's totals with their reasons, through the snapshot codec (run.db,
// agents) and Snapshot.Merge (a distributed run's seconds), in no request
// figure; and that a snapshot without any keeps the version earlier builds
// read.
func TestNotSentTravels(t *testing.T) {
	why := func(i int) string {
		return fmt.Sprintf("not sent: GET /u/{{ user }} has a line break at byte %d once filled in", i)
	}
	tests := []struct {
		name    string
		agents  int // each records the same
		reasons int // distinct reasons, each once per agent
		want    int64
		kept    int // reasons the totals keep
	}{
		{"one reason", 1, 1, 1, 1},
		{"five reasons keep three", 1, 5, 5, 3},
		{"two agents merged", 2, 2, 4, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var merged *Snapshot
			for range tt.agents {
				rec := NewRecorder(testLayout(), 1)
				for i := range tt.reasons {
					rec.Sink(0).Iteration(1, 100*time.Millisecond, time.Millisecond)
					rec.Sink(0).NotSent(1, 100*time.Millisecond, why(i))
				}
				s := roundTrip(t, rec.Collect(0))
				if merged == nil {
					merged = s
				} else {
					merged.Merge(s)
				}
			}
			run := NewRun(testLayout())
			run.Add(roundTrip(t, merged))
			sc := run.Scenarios[1]
			if sc.NotSent != tt.want || sc.Iterations != tt.want || len(sc.NotSentWhy) != tt.kept {
				t.Fatalf("%d not sent of %d iterations, %d reasons; want %d of %d, %d", sc.NotSent, sc.Iterations, len(sc.NotSentWhy), tt.want, tt.want, tt.kept)
			}
			if sc.NotSentWhy[0].Count != int64(tt.agents) || sc.NotSentWhy[0].Message != why(0) {
				t.Errorf("first reason %+v, want %q counted %d", sc.NotSentWhy[0], why(0), tt.agents)
			}
			if tot := run.Total(); tot.Requests != 0 {
				t.Errorf("%d requests, want none", tot.Requests)
			}
		})
	}
	b, err := NewSnapshot(0, testLayout()).MarshalBinary()
	if err != nil || b[len(snapshotMagic)] >= notSentVersion {
		t.Errorf("a snapshot without iterations not sent is version %d (%v), want < %d", b[len(snapshotMagic)], err, notSentVersion)
	}
}
