package scrape

import (
	"context"
	"io"
	"time"
)

// yieldEvery is how much of an exposition is parsed between two pauses.
const yieldEvery = 16 << 10

// yieldPause lets the scheduler poll the network: a parked goroutine, the
// only runnable one, makes the runtime look at the netpoller, where a
// Gosched would not (it takes the next runnable goroutine first).
func yieldPause() { time.Sleep(time.Microsecond) }

// yieldingReader pauses every yieldEvery bytes. Parsing node_exporter's
// 100 KB takes a few milliseconds of CPU, which on a generator pinned to
// one core (GOMAXPROCS=1) held the only P while open-model arrivals and
// responses waited: their latency took the parse's length, once a second.
type yieldingReader struct {
	r     io.Reader
	pause func()
	ctx   context.Context // nil: never ends early
	since int
}

// Read reads from r, pausing first once yieldEvery bytes were read since
// the last pause; it fails once ctx has ended.
func (y *yieldingReader) Read(p []byte) (int, error) {
	if y.since >= yieldEvery {
		y.pause()
		y.since = 0
		if y.ctx != nil && y.ctx.Err() != nil {
			return 0, y.ctx.Err()
		}
	}
	n, err := y.r.Read(p)
	y.since += n
	return n, err
}
