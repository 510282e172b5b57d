package engine

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/loadlens/loadlens/internal/plan"
)

// vuHeadroom is how far the heap may grow between two collections per VU
// of the run: a VU's start (its connection, contexts, timer) allocates
// 5–8 KiB, so 10,000 VUs starting together make 50–80 MB, which GOGC=100
// met with two collections while they started, each marking 10,000
// goroutine stacks for 100–300 ms (docs/generator.md).
const vuHeadroom = 16 << 10

// maxHeadroom bounds one engine's headroom (32,768 VUs' worth): the
// bounded tests' hundred million VUs must not make a 1.6 GB heap legal.
const maxHeadroom = 512 << 20

// headroomVUs is the VU count from which the engine keeps that headroom;
// below it GOGC=100's room is enough.
const headroomVUs = 1000

// gcRoom is the process's GC setting while engines that hold many VUs run:
// after each collection the heap may grow by the sum of their headroom, or
// by what is live (GOGC=100) when that is more, so the heap stays within
// live + max(live, headroom) and no more.
var gcRoom struct {
	mu      sync.Mutex
	bytes   uint64 // the running engines' headroom
	prev    int    // the GC percent before the first of them
	cycle   int    // bumped at each hold, so an old cycle's callback stops
	managed bool
}

// holdGCHeadroom sets the GC's headroom for vus VUs until release is
// called; it does nothing when the user set GOGC or GOMEMLIMIT (their
// choice stands) or for fewer than headroomVUs VUs.
func holdGCHeadroom(vus int) (release func()) {
	if vus < headroomVUs || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	add := uint64(min(vus, maxHeadroom/vuHeadroom)) * vuHeadroom
	gcRoom.mu.Lock()
	defer gcRoom.mu.Unlock()
	if gcRoom.bytes == 0 {
		gcRoom.prev = debug.SetGCPercent(100)
		gcRoom.managed = true
		gcRoom.cycle++
		armGCRoom(gcRoom.cycle)
	}
	gcRoom.bytes += add
	tuneGCRoom()
	return sync.OnceFunc(func() {
		gcRoom.mu.Lock()
		defer gcRoom.mu.Unlock()
		gcRoom.bytes -= add
		if gcRoom.bytes == 0 && gcRoom.managed {
			debug.SetGCPercent(gcRoom.prev)
			gcRoom.managed = false
		}
	})
}

// tuneGCRoom sets the GC percent so that the next collection comes after
// the heap grew by gcRoom.bytes: the percent applies to the live heap,
// the goroutine stacks and the globals. The caller holds gcRoom.mu.
func tuneGCRoom() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(s)
	base := max(s[0].Value.Uint64()+s[1].Value.Uint64()+s[2].Value.Uint64(), 1<<20)
	debug.SetGCPercent(int(max(100, 100*gcRoom.bytes/base)))
}

// retuneGCRoom retunes at once, when the caller just collected.
func retuneGCRoom() {
	gcRoom.mu.Lock()
	defer gcRoom.mu.Unlock()
	if gcRoom.managed {
		tuneGCRoom()
	}
}

// sentinel is garbage whose finalizer runs after each collection; it holds
// a pointer so that the tiny allocator never batches it with other objects.
type sentinel struct {
	cycle *int
	_     [16]byte
}

// armGCRoom retunes after the next collection, and again after each one,
// while the hold of cycle lasts.
func armGCRoom(cycle int) {
	s := &sentinel{cycle: &cycle}
	runtime.SetFinalizer(s, func(s *sentinel) {
		gcRoom.mu.Lock()
		defer gcRoom.mu.Unlock()
		if !gcRoom.managed || gcRoom.cycle != *s.cycle {
			return
		}
		tuneGCRoom()
		armGCRoom(*s.cycle)
	})
}

// peakVUs is the most VUs the engine's closed-model scenarios hold at once
// (their segment's share): the VUs whose start the headroom is for.
func (e *Engine) peakVUs() int {
	n := 0
	for _, sc := range e.scens {
		l := &sc.s.Load
		switch l.Model {
		case plan.VUs:
			peak := l.StartVUs
			for _, st := range l.Stages {
				peak = max(peak, int(st.Target))
			}
			n += e.opts.Segment.Share(peak)
		case plan.Iterations:
			n += e.opts.Segment.Share(l.VUCount)
		}
	}
	return n
}
