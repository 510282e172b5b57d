package engine

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// gcPercent is the GC percent in effect.
func gcPercent() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestGCHeadroom: many VUs raise the GC percent so that the heap may grow
// by 16 KiB per VU between collections (never below GOGC=100), retuned
// after each collection, and restored on release; a user's GOGC or
// GOMEMLIMIT, or few VUs, leave it alone.
func TestGCHeadroom(t *testing.T) {
	for _, c := range []struct {
		name       string
		vus        int
		gogc, mlim string
		raised     bool
	}{
		{"10,000 VUs", 10_000, "", "", true},
		{"999 VUs", 999, "", "", false},
		{"GOGC set", 10_000, "100", "", false},
		{"GOMEMLIMIT set", 10_000, "", "1GiB", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOGC", c.gogc)
			t.Setenv("GOMEMLIMIT", c.mlim)
			before := gcPercent()
			release := holdGCHeadroom(c.vus)
			runtime.GC()
			retuneGCRoom()
			during := gcPercent()
			release()
			release() // a second release changes nothing
			if after := gcPercent(); after != before {
				t.Fatalf("GC percent %d after release, %d before", after, before)
			}
			if !c.raised {
				if during != before {
					t.Fatalf("GC percent %d while held, want %d (unchanged)", during, before)
				}
				return
			}
			s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
			metrics.Read(s)
			base := s[0].Value.Uint64() + s[1].Value.Uint64() + s[2].Value.Uint64()
			if room := base * during / 100; room < 10_000*vuHeadroom*9/10 || room > 10_000*vuHeadroom*11/10 {
				t.Fatalf("GC percent %d on %d bytes live leaves %d bytes of room, want about %d", during, base, room, 10_000*vuHeadroom)
			}
		})
	}
}

// TestGCHeadroomFollowsTheLiveHeap: after a collection that found more
// live, the percent falls so that the room stays the VUs' headroom, not a
// multiple of the live heap.
func TestGCHeadroomFollowsTheLiveHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	release := holdGCHeadroom(10_000)
	defer release()
	runtime.GC()
	retuneGCRoom()
	small := gcPercent()
	live := make([]byte, 64<<20) // live across the collection below
	runtime.GC()                 // its finalizer retunes, not this test
	if !waitFor(func() bool { return gcPercent() < small }) {
		t.Fatalf("GC percent still %d after a collection found 64 MiB more live", small)
	}
	runtime.KeepAlive(live)
	if p := gcPercent(); p < 100 || p > 100*10_000*vuHeadroom/(64<<20) {
		t.Fatalf("GC percent %d with 64 MiB live, want 100..%d", p, 100*10_000*vuHeadroom/(64<<20))
	}
}
