package h1

import (
	"sync"
	"sync/atomic"
	"time"
)

// IdleCloses is what clients learned of servers that close idle kept-alive
// connections (a keep-alive timeout): per host, the shortest time a
// connection had been idle when its server was found to have closed it.
// A request that reaches a server as it closes an idle connection is reset
// with the request unread, exactly as a server resets a request it read:
// the idle time tells the two apart (see Client.neverRead). Clients of one
// run share one, so that each VU need not first meet the close itself. The
// zero value is ready; it is safe for concurrent use.
type IdleCloses struct {
	hosts sync.Map // host, as Client.conns keys it → *atomic.Int64, nanoseconds
}

// note records that host closed a connection idle for d.
func (ic *IdleCloses) note(host string, d time.Duration) {
	if d <= 0 {
		return
	}
	v, ok := ic.hosts.Load(host)
	if !ok {
		v, _ = ic.hosts.LoadOrStore(host, new(atomic.Int64))
	}
	a := v.(*atomic.Int64)
	for {
		old := a.Load()
		if old != 0 && old <= int64(d) || a.CompareAndSwap(old, int64(d)) {
			return
		}
	}
}

// shortest returns the shortest idle time after which host was found to
// have closed a connection; 0 when it never was (or ic is nil).
func (ic *IdleCloses) shortest(host string) time.Duration {
	if ic == nil {
		return 0
	}
	v, ok := ic.hosts.Load(host)
	if !ok {
		return 0
	}
	return time.Duration(v.(*atomic.Int64).Load())
}
