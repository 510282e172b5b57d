package metrics

import (
	"fmt"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// Recorder collects the measurements of all VUs of a run. VUs record into
// shards (VU v into shard v mod N), each with its own mutex, so recording
// takes no lock another shard's VUs wait for and allocates nothing once the
// shard's windows exist. Once a second Collect turns the finished second
// into a Snapshot.
//
// Memory: every shard keeps about two windows open (the second being
// collected and the next), each with two dense histograms of ~140 KB per
// endpoint it has seen and two per scenario; choose the shard count with
// that in mind.
type Recorder struct {
	layout sample.Layout
	shards []*shard

	collectMu sync.Mutex // serializes Collect, which owns the fields below
	taken     []*window
	bounds    []int
}

// shard is one independently locked part of a Recorder; it is the Sink of
// the VUs assigned to it.
type shard struct {
	mu        sync.Mutex
	layout    *sample.Layout
	collected int       // the last second collected; records up to it are late
	last      *window   // the window of the previous record, the usual hit
	open      []*window // windows not collected yet
	free      []*window // collected windows, reset, for reuse

	// Keeps the next shard's lock and hot fields off this one's cache line,
	// so VUs on different cores do not slow each other down.
	_ [64]byte
}

var _ sample.Recorder = (*Recorder)(nil)
var _ sample.LastRequestSink = (*shard)(nil)

// NewRecorder returns a Recorder for layout with the given number of shards
// (at least 1; a few per CPU keeps contention negligible).
func NewRecorder(layout sample.Layout, shards int) *Recorder {
	shards = max(shards, 1)
	r := &Recorder{layout: layout, shards: make([]*shard, shards)}
	for i := range r.shards {
		r.shards[i] = &shard{layout: &r.layout, collected: -1}
	}
	return r
}

// Layout returns the layout the recorder was made for.
func (r *Recorder) Layout() sample.Layout { return r.layout }

// Sink returns the sink VU vu records into.
func (r *Recorder) Sink(vu int) sample.Sink {
	n := len(r.shards)
	return r.shards[((vu%n)+n)%n]
}

// windowAt returns the open window for a record at offset t, creating it if
// needed. A record for a second already collected goes into the earliest
// second still open, so that it is counted late rather than lost. The
// caller holds s.mu.
func (s *shard) windowAt(t time.Duration) *window {
	sec := 0
	if t > 0 {
		sec = int(t / time.Second)
	}
	if sec <= s.collected {
		sec = s.collected + 1
	}
	if s.last != nil && s.last.sec == sec {
		return s.last
	}
	for _, w := range s.open {
		if w.sec == sec {
			s.last = w
			return w
		}
	}
	var w *window
	if n := len(s.free); n > 0 {
		w = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		w = newWindow(*s.layout)
	}
	w.sec = sec
	s.open = append(s.open, w)
	s.last = w
	return w
}

// Request records a finished request. It panics on an endpoint id outside
// the layout, which is a bug of the caller.
func (s *shard) Request(r *sample.Request) {
	if uint(r.Endpoint) >= uint(len(s.layout.Endpoints)) {
		panic(fmt.Sprintf("metrics: request for endpoint %d; the layout has %d", r.Endpoint, len(s.layout.Endpoints)))
	}
	s.mu.Lock()
	s.request(s.windowAt(r.End), r)
	s.mu.Unlock()
}

// RequestIteration records a request and the iteration it ends under one lock.
func (s *shard) RequestIteration(r *sample.Request, scenario int32, d time.Duration) {
	if uint(r.Endpoint) >= uint(len(s.layout.Endpoints)) {
		panic(fmt.Sprintf("metrics: request for endpoint %d; the layout has %d", r.Endpoint, len(s.layout.Endpoints)))
	}
	s.checkScenario(scenario)
	s.mu.Lock()
	w := s.windowAt(r.End)
	s.request(w, r)
	w.scenarios[scenario].iteration(d)
	s.mu.Unlock()
}

// request adds r to window w; s.mu is held.
func (s *shard) request(w *window, r *sample.Request) {
	e := &w.endpoints[r.Endpoint]
	e.request(r)
	if s.layout.KeepExpected && r.Kind == sample.OK {
		e.expect(r.Duration)
	}
	if len(s.layout.Statuses) > 0 {
		w.status(s.layout.Statuses, r, micros(r.Duration))
	}
}

// Check records one evaluation of a check.
func (s *shard) Check(check int32, end time.Duration, ok bool) {
	s.CheckAnswer(check, end, ok, sample.CheckRead{})
}

// CheckAnswer records one evaluation of a check and what it read.
func (s *shard) CheckAnswer(check int32, end time.Duration, ok bool, a sample.CheckRead) {
	if uint(check) >= uint(len(s.layout.Checks)) {
		panic(fmt.Sprintf("metrics: check %d recorded; the layout has %d", check, len(s.layout.Checks)))
	}
	s.mu.Lock()
	s.windowAt(end).checks[check].record(ok, a)
	s.mu.Unlock()
}

// Iteration records a completed iteration and its duration.
func (s *shard) Iteration(scenario int32, end time.Duration, d time.Duration) {
	s.checkScenario(scenario)
	s.mu.Lock()
	s.windowAt(end).scenarios[scenario].iteration(d)
	s.mu.Unlock()
}

// Group records one run of a flow group and its duration.
func (s *shard) Group(group int32, end time.Duration, d time.Duration) {
	if group < 0 || int(group) >= len(s.layout.Groups) {
		panic(fmt.Sprintf("metrics: group id %d outside the layout's %d groups", group, len(s.layout.Groups)))
	}
	s.mu.Lock()
	s.windowAt(end).group(group, d)
	s.mu.Unlock()
}

// Dropped records an iteration that could not start for lack of a VU.
func (s *shard) Dropped(scenario int32, at time.Duration) {
	s.checkScenario(scenario)
	s.mu.Lock()
	s.windowAt(at).scenarios[scenario].dropped++
	s.mu.Unlock()
}

// NotSent records an iteration a request not sent ended, and why.
func (s *shard) NotSent(scenario int32, end time.Duration, why string) {
	s.checkScenario(scenario)
	s.mu.Lock()
	w := &s.windowAt(end).scenarios[scenario]
	w.notSentN++
	w.notSent = addErrorSample(w.notSent, ErrorSample{Kind: sample.Other, Message: why, Count: 1}, MaxErrorSamples)
	s.mu.Unlock()
}

// Offered records n arrivals the schedule offered, in the second of their
// intended start.
func (s *shard) Offered(scenario int32, at time.Duration, n int64) {
	s.checkScenario(scenario)
	s.mu.Lock()
	s.windowAt(at).scenarios[scenario].offered += n
	s.mu.Unlock()
}

// Lag records how late an iteration started.
func (s *shard) Lag(scenario int32, at time.Duration, lag time.Duration) {
	s.checkScenario(scenario)
	s.mu.Lock()
	s.windowAt(at).scenarios[scenario].recordLag(lag)
	s.mu.Unlock()
}

func (s *shard) checkScenario(scenario int32) {
	if uint(scenario) >= uint(len(s.layout.Scenarios)) {
		panic(fmt.Sprintf("metrics: scenario %d recorded; the layout has %d", scenario, len(s.layout.Scenarios)))
	}
}

// Collect returns the snapshot of second sec: every record of that second
// or earlier not collected before. Call it once per second, with increasing
// seconds, a little after sec has ended; records for sec that arrive later
// are counted in the next second collected.
func (r *Recorder) Collect(sec int) *Snapshot { return r.CollectPausing(sec, func() {}) }

// CollectPausing is Collect calling pause between its chunks of work (one
// endpoint's or scenario's histograms merged, one endpoint's windows
// reset), so a caller sharing one P with the VUs (GOMAXPROCS=1) can let
// them run in between: the pause runs on windows no VU can reach any more.
func (r *Recorder) CollectPausing(sec int, pause func()) *Snapshot {
	r.collectMu.Lock()
	defer r.collectMu.Unlock()
	taken := r.taken[:0]
	// bounds[i]..bounds[i+1] are the windows taken from shard i.
	bounds := append(r.bounds[:0], 0)
	for _, s := range r.shards {
		// Only swap windows out under the lock; merging happens outside it.
		s.mu.Lock()
		kept := s.open[:0]
		for _, w := range s.open {
			if w.sec <= sec {
				taken = append(taken, w)
			} else {
				kept = append(kept, w)
			}
		}
		clear(s.open[len(kept):])
		s.open = kept
		s.last = nil
		s.collected = max(s.collected, sec)
		s.mu.Unlock()
		bounds = append(bounds, len(taken))
	}
	snap := r.merge(sec, taken, pause)
	resetWindows(taken, pause)
	for i, s := range r.shards {
		if mine := taken[bounds[i]:bounds[i+1]]; len(mine) > 0 {
			s.mu.Lock()
			s.free = append(s.free, mine...)
			s.mu.Unlock()
		}
	}
	clear(taken)
	r.taken, r.bounds = taken[:0], bounds[:0]
	return snap
}
