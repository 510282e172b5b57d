package app

import (
	"sync/atomic"
	"time"
)

// collectPause lets the scheduler run between two chunks of the collector's
// second: a parked goroutine, the only runnable one, makes the runtime run
// its timers and poll the network, where a Gosched would not. On a
// generator given one core (GOMAXPROCS=1) the second's bookkeeping (merging
// histograms, writing run.db, the dashboard's frame) took 1–3 ms of CPU in
// one burst, and the open-model arrivals due meanwhile started that late
// (their latency is timed from the intended start, so the burst showed in
// p99.9). See also internal/scrape/yield.go, which does the same for parsing.
func collectPause() { time.Sleep(time.Microsecond) }

const (
	// pauseAfter is the work between two pauses: a chunk boundary pauses
	// only once this much time passed since the last pause ended.
	pauseAfter = 50 * time.Microsecond
	// pausesAtMost is the wall time one second's pauses may take. On an
	// idle P a 1 µs sleep lasts ~1 ms (the network poller waits in whole
	// milliseconds); the pauses then serve no one, and a test with
	// hundreds of endpoints must still be collected within its second.
	pausesAtMost = 200 * time.Millisecond
)

// pacer pauses at the chunk boundaries of the collector's and run.db's
// work, at most once per pauseAfter of work and for at most pausesAtMost
// a second. The collector and the scraper (its run.db writes) share it.
type pacer struct {
	base  time.Time            // monotonic origin of the offsets below
	now   func() time.Duration // offset from base; a test's clock replaces it
	sleep func()
	last  atomic.Int64 // offset when the last pause ended
	spent atomic.Int64 // wall time paused in the current second
}

func newPacer() *pacer {
	p := &pacer{base: time.Now(), sleep: collectPause}
	p.now = func() time.Duration { return time.Since(p.base) }
	return p
}

// newSecond starts a second's allowance of pauses.
func (p *pacer) newSecond() { p.spent.Store(0) }

// pause pauses when pauseAfter has passed since the last pause, unless the
// second's pauses took pausesAtMost already.
func (p *pacer) pause() {
	start := p.now()
	if start-time.Duration(p.last.Load()) < pauseAfter || time.Duration(p.spent.Load()) >= pausesAtMost {
		return
	}
	p.sleep()
	end := p.now()
	p.spent.Add(int64(end - start))
	p.last.Store(int64(end))
}

// pause is called between the chunks of the collector's work: the pacer's
// pause, or the hook a test set to count the chunks.
func (r *runner) pause() {
	if r.pauseHook != nil {
		r.pauseHook()
		return
	}
	r.pacer.pause()
}
