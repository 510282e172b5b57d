package plan

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestArrivalsInCountsHasArrival(t *testing.T) {
	segs := []string{"0:1", "0:1/3", "1/3:2/3", "2/3:1", "1/7:5/9", "0:1/1024", "999/1000:1"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, str := range segs {
		seg, err := ParseSegment(str)
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			lo := rng.Int64N(5000)
			hi := lo + rng.Int64N(3000)
			if rng.IntN(4) == 0 { // far from zero too
				lo += 1 << 40
				hi += 1 << 40
			}
			var want int64
			for i := lo; i < hi; i++ {
				if seg.HasArrival(i) {
					want++
				}
			}
			if got := seg.ArrivalsIn(lo, hi); got != want {
				t.Fatalf("%s: ArrivalsIn(%d, %d) = %d, want %d", str, lo, hi, got, want)
			}
		}
	}
}

func TestArrivalsInTilesHugeRanges(t *testing.T) {
	parts := []string{"0:1/3", "1/3:2/3", "2/3:1"}
	for _, hi := range []int64{1 << 62, math.MaxInt64, 123456789012345} {
		var sum int64
		for _, p := range parts {
			seg, _ := ParseSegment(p)
			sum += seg.ArrivalsIn(0, hi)
		}
		if sum != hi {
			t.Errorf("segments of [0, %d) count %d arrivals", hi, sum)
		}
	}
}

// TestSkipUntilCountsWhatNextWouldHaveYielded checks that skipping and then
// calling Next sees every arrival exactly once, as Next alone does.
func TestSkipUntilCountsWhatNextWouldHaveYielded(t *testing.T) {
	load := Load{StartRate: 50, Stages: []Stage{{2 * time.Second, 400}, {time.Second, 400}, {2 * time.Second, 0}}}
	for _, str := range []string{"0:1", "1/4:3/4"} {
		seg, _ := ParseSegment(str)
		all := arrivalsOf(t, load, seg)
		for _, skip := range []time.Duration{0, 10 * time.Millisecond, 1500 * time.Millisecond, 2 * time.Second, 2500 * time.Millisecond, 4 * time.Second, time.Hour} {
			a := NewArrivals(&load, seg)
			first, _ := a.Next() // a scheduler has one arrival in hand when it skips
			n := 1 + a.SkipUntil(skip)
			rest := 0
			for range 1_000_000 {
				at, ok := a.Next()
				if !ok {
					break
				}
				if at < skip && at != first {
					t.Fatalf("%s skip %v: Next returned %v, due before the skip", str, skip, at)
				}
				rest++
			}
			if int(n)+rest != len(all) {
				t.Fatalf("%s skip %v: skipped %d + yielded %d != %d arrivals", str, skip, n, rest, len(all))
			}
		}
	}
}

func TestSkipUntilAtAHugeRate(t *testing.T) {
	load := Load{StartRate: 1e18, Stages: []Stage{{10 * time.Second, 1e18}}}
	a := NewArrivals(&load, Whole)
	if n := a.SkipUntil(time.Second); n < 999e15 || n > 1001e15 {
		t.Fatalf("skipped %d arrivals in 1s at 1e18/s", n)
	}
	if at, ok := a.Next(); !ok || at < time.Second-time.Millisecond || at > time.Second+time.Millisecond {
		t.Fatalf("next arrival at %v (%v), want about 1s", at, ok)
	}
	if n := a.SkipUntil(time.Hour); n <= 0 { // past what an int64 index counts: capped, and the schedule ends
		t.Fatalf("skipped %d", n)
	}
	if _, ok := a.Next(); ok {
		t.Fatal("the schedule goes on after its end")
	}
}
