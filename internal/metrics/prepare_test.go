package metrics

import (
	"bytes"
	"testing"
	"time"
)

// TestPrepareMakesTheFirstSecondsAllocationFree: after Prepare, the first
// record of every endpoint and scenario in every shard, in seconds 0 and 1,
// allocates nothing; and the snapshots are those of a recorder that was
// not prepared.
func TestPrepareMakesTheFirstSecondsAllocationFree(t *testing.T) {
	const shards = 4
	prepared, plain := NewRecorder(testLayout(), shards), NewRecorder(testLayout(), shards)
	prepared.Prepare()
	record := func(r *Recorder, i int) {
		end := time.Duration(i%2) * time.Second // seconds 0 and 1 alternately
		q := request(i, end+time.Duration(i)*time.Millisecond)
		s := r.Sink(i / 6) // every shard meets every endpoint, in both seconds
		s.Request(&q)
		s.Iteration(int32(i%2), q.End, q.Duration)
		s.Lag(int32(i%2), q.End, time.Millisecond)
	}
	i := 0
	if n := testing.AllocsPerRun(6*shards-1, func() { record(prepared, i); i++ }); n != 0 {
		t.Errorf("%v allocations per record after Prepare, want 0", n)
	}
	for j := range i {
		record(plain, j)
	}
	for sec := range 2 {
		a, _ := prepared.Collect(sec).MarshalBinary()
		b, _ := plain.Collect(sec).MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("second %d: the prepared recorder's snapshot differs from the plain one's", sec)
		}
	}
}
