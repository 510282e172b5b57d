package engine

import (
	"time"

	"github.com/loadlens/loadlens/internal/proc"
)

// fdsEvery is how often, near the file limit, the governor counts the
// descriptors the process really holds.
const fdsEvery = 50 * time.Millisecond

// fdWatch holds an open-model pool below the file limit by what the process
// really holds, not by one connection per VU: a target served from the same
// process (`demo --in-process`, the mock, a test's server) holds a second
// descriptor per connection, and the pool ran into "too many open files"
// at 16,909 VUs of a 20,000 limit. It counts only once the pool is a
// quarter of the way to the limit, where counting is worth its cost.
type fdWatch struct {
	limit int64 // descriptors the pool may use up to: the limit less the reserve; 0: unknown
	base  int64 // descriptors open before the pool's VUs connected
	at    time.Duration
	open  int64 // descriptors open at the last count
	vus   int64 // VUs allocated then
	count func() int64
}

// newFDWatch starts watching against the open-file limit; it watches nothing
// where the limit or the count cannot be read.
func newFDWatch(limit int64) fdWatch { return newFDWatchCounting(limit, openFDs) }

func newFDWatchCounting(limit int64, count func() int64) fdWatch {
	base := count()
	if limit <= 0 || base < 0 {
		return fdWatch{}
	}
	return fdWatch{limit: vusForFiles(limit), base: base, at: -time.Hour, count: count}
}

// full reports whether one more VU would take the process past its limit,
// at offset now with allocated VUs, projecting each new VU to hold as many
// descriptors as the VUs so far did on average (at least one).
func (w *fdWatch) full(now time.Duration, allocated int64) bool {
	if w.limit == 0 || allocated < w.limit/4 {
		return false
	}
	if now-w.at >= fdsEvery {
		if n := w.count(); n >= 0 {
			w.at, w.open, w.vus = now, n, allocated
		}
	}
	per := int64(1)
	if w.vus > 0 {
		per = max(1, (w.open-w.base+w.vus-1)/w.vus)
	}
	return w.open+per*(allocated-w.vus+1) > w.limit
}

// openFDs counts the file descriptors the process holds; -1 where it
// cannot.
func openFDs() int64 { return int64(proc.OpenFDs(nil)) }
