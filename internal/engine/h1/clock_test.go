package h1

import (
	"testing"
	"time"
)

// TestClockAgreesWithTimeNow: Clock's times fall between time.Now's read
// just before and just after (give or take its calibration error),
// whenever its base was read.
func TestClockAgreesWithTimeNow(t *testing.T) {
	var k Clock
	for i := range 1000 {
		before := time.Now()
		now := k.Now()
		after := time.Now()
		if now.Before(before.Add(-k.err-1)) || after.Add(k.err+1).Before(now) {
			t.Fatalf("read %d: %v is not between %v and %v (± %v)", i, now, before, after, k.err)
		}
		if i == 0 {
			time.Sleep(10 * time.Millisecond) // later reads are offsets from an older base
		}
	}
}

// TestClockDoesNotAllocate: a read costs no allocation.
func TestClockDoesNotAllocate(t *testing.T) {
	var k Clock
	k.Now()
	if n := testing.AllocsPerRun(100, func() { k.Now() }); n != 0 {
		t.Fatalf("%v allocations per read", n)
	}
}
