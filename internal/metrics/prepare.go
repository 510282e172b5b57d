package metrics

import "time"

// prepareBytes bounds what Prepare allocates: the histograms of the first
// two seconds of every shard, as far as this allows (a plan with many
// endpoints gets the rest on first use, as without Prepare).
const prepareBytes = 32 << 20

// denseBytes is the size of one dense histogram's counts.
const denseBytes = 8 * 17 * 1024

// Prepare makes the windows of the run's first two seconds, with their
// histograms, in every shard: otherwise the first requests of each shard
// allocate them (about 140 KB each) while they are timed, and set off
// garbage collections in the first second. Call it before the first
// record.
func (r *Recorder) Prepare() {
	budget := prepareBytes
	for sec := range 2 {
		for _, s := range r.shards {
			s.mu.Lock()
			w := s.windowAt(time.Duration(sec) * time.Second)
			for i := range w.endpoints {
				if e := &w.endpoints[i]; e.duration == nil && budget >= 2*denseBytes {
					e.duration, e.waiting = newDense(), newDense()
					budget -= 2 * denseBytes
				}
			}
			for i := range w.scenarios {
				sc := &w.scenarios[i]
				if sc.iterDur == nil && budget >= denseBytes {
					sc.iterDur = newDense()
					budget -= denseBytes
				}
				if sc.lag == nil && budget >= denseBytes {
					sc.lag = newDense()
					budget -= denseBytes
				}
			}
			s.mu.Unlock()
		}
	}
}
