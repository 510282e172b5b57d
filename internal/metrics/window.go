package metrics

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadlens/loadlens/internal/sample"
)

// window accumulates one shard's records of one second. Windows and their
// dense histograms are recycled by their shard, so recording allocates only
// while a shard meets an endpoint or scenario for the first time.
type window struct {
	sec       int
	endpoints []endpointWindow
	scenarios []scenarioWindow
	checks    []CheckSecond
	groups    []*hdr.Histogram // group_duration per group; each allocated on first use, kept across reuse
	metrics   []MetricSecond   // custom metrics' counts and sums per series (their Trend unused)
	trends    []*hdr.Histogram // custom trends per series; each allocated on first use, kept across reuse
	// byStatus holds, per endpoint, its requests per status a threshold
	// names; nil when none does (kept apart so endpoints stay as small).
	byStatus [][]statusWindow
}

// endpointWindow is one endpoint's part of a window.
type endpointWindow struct {
	requests       int64
	failures       [sample.NumKinds]int64
	truncated      int64 // bodies longer than the step's max_body
	sent, received int64
	duration       *hdr.Histogram // allocated on first use, kept across reuse
	waiting        *hdr.Histogram
	expected       *hdr.Histogram // successful requests only, when the layout keeps them; allocated on first use
	connectSum     time.Duration
	tlsSum         time.Duration
	connects       int64
	tlsHandshakes  int64
	connectMax     time.Duration
	tlsMax         time.Duration
	redirects      int64                        // redirects followed inside the requests
	sends          Sends                        // when the requests were sent and the last ended: what a rate is over
	errors         *[sample.NumKinds]kindErrors // allocated on the first failure
	facts          *FactFigures                 // a session protocol's facts; allocated on the first sample with some
}

// kindErrors holds the first distinct error samples of one kind.
type kindErrors struct {
	n       int
	samples [MaxErrorSamples]ErrorSample
	keys    [MaxErrorSamples]string // each sample's causeKey, made once
}

// scenarioWindow is one scenario's part of a window.
type scenarioWindow struct {
	iterations int64
	dropped    int64
	offered    int64          // arrivals the schedule offered, by their intended start
	notSent    []ErrorSample  // iterations ended by a request not sent, by reason (at most MaxErrorSamples)
	notSentN   int64          // all of them, the reasons not kept too
	iterDur    *hdr.Histogram // allocated on first use, kept across reuse
	lag        *hdr.Histogram
}

func newWindow(layout sample.Layout) *window {
	return &window{
		endpoints: make([]endpointWindow, len(layout.Endpoints)),
		scenarios: make([]scenarioWindow, len(layout.Scenarios)),
		checks:    make([]CheckSecond, len(layout.Checks)),
		groups:    make([]*hdr.Histogram, len(layout.Groups)),
		metrics:   make([]MetricSecond, len(layout.Metrics)),
		trends:    make([]*hdr.Histogram, len(layout.Metrics)),
	}
}

// group records one run of group g; the caller holds the shard's lock.
func (w *window) group(g int32, d time.Duration) {
	if w.groups[g] == nil {
		w.groups[g] = newDense()
	}
	_ = w.groups[g].RecordValue(micros(d))
}

// request adds one finished request; the caller holds the shard's lock.
func (e *endpointWindow) request(r *sample.Request) {
	e.requests++
	// A request counts from when it was meant to start, not from the second it ended in.
	start := max(r.End-r.Duration, 0) // nothing is sent before the run starts
	if e.requests == 1 {
		e.sends = Sends{FirstStart: start, LastStart: start, LastEnd: r.End, Kept: true}
	} else {
		e.sends.FirstStart, e.sends.LastStart = min(e.sends.FirstStart, start), max(e.sends.LastStart, start)
		e.sends.LastEnd = max(e.sends.LastEnd, r.End)
	}
	e.redirects += int64(r.Redirects)
	if r.Truncated {
		e.truncated++
	}
	e.sent += r.Sent
	e.received += r.Received
	if e.duration == nil {
		e.duration, e.waiting = newDense(), newDense()
	}
	// Values are clamped into range, so recording cannot fail.
	_ = e.duration.RecordValue(micros(r.Duration))
	_ = e.waiting.RecordValue(micros(r.Waiting))
	if r.Connecting > 0 {
		e.connectSum += r.Connecting
		e.connects++
		e.connectMax = max(e.connectMax, r.Connecting)
	}
	if r.TLS > 0 {
		e.tlsSum += r.TLS
		e.tlsHandshakes++
		e.tlsMax = max(e.tlsMax, r.TLS)
	}
	if r.Kind != sample.OK {
		e.failure(r)
	}
	if r.Facts != nil {
		if e.facts == nil {
			e.facts = &FactFigures{}
		}
		e.facts.record(r.Facts)
	}
}

// failure counts a failed request and keeps it as a sample if it is new.
func (e *endpointWindow) failure(r *sample.Request) {
	k := r.Kind
	if k >= sample.NumKinds {
		k = sample.Other
	}
	e.failures[k]++
	if e.errors == nil {
		e.errors = new([sample.NumKinds]kindErrors)
	}
	ke := &e.errors[k]
	for i := range ke.n {
		if s := &ke.samples[i]; s.Status == r.Status && s.Message == r.Err {
			s.Count++
			return
		}
	}
	key := causeKey(r.Err)
	for i := range ke.n {
		if s := &ke.samples[i]; s.Status == r.Status && ke.keys[i] == key {
			s.Count++ // the same cause: the first message stays its example
			return
		}
	}
	if ke.n < MaxErrorSamples {
		ke.samples[ke.n] = ErrorSample{Kind: k, Status: r.Status, Message: r.Err, Count: 1}
		ke.keys[ke.n] = key
		ke.n++
	}
}

// expect records a successful request's duration, for
// http_req_duration{expected_response:true}.
func (e *endpointWindow) expect(d time.Duration) {
	if e.expected == nil {
		e.expected = newDense()
	}
	_ = e.expected.RecordValue(micros(d))
}

func (s *scenarioWindow) iteration(d time.Duration) {
	s.iterations++
	if s.iterDur == nil {
		s.iterDur = newDense()
	}
	_ = s.iterDur.RecordValue(micros(d))
}

func (s *scenarioWindow) recordLag(lag time.Duration) {
	if s.lag == nil {
		s.lag = newDense()
	}
	_ = s.lag.RecordValue(micros(lag))
}

// resetWindows empties the windows taken for reuse, keeping their
// histograms, one endpoint at a time across the windows, calling pause
// after each busy endpoint: resetting a dense histogram clears ~140 KB.
func resetWindows(taken []*window, pause func()) {
	if len(taken) == 0 {
		return
	}
	for i := range taken[0].endpoints {
		busy := false
		for _, w := range taken {
			busy = w.resetEndpoint(i) || busy
		}
		if busy {
			pause()
		}
	}
	for _, w := range taken {
		w.resetRest()
	}
}

// resetEndpoint resets endpoint i's counters and histograms, and reports
// whether it held anything.
func (w *window) resetEndpoint(i int) bool {
	e := &w.endpoints[i]
	if e.requests == 0 {
		return false
	}
	d, wt, ex, errs := e.duration, e.waiting, e.expected, e.errors
	d.Reset()
	wt.Reset()
	resetDense(ex)
	if errs != nil {
		*errs = [sample.NumKinds]kindErrors{} // drops message references too
	}
	*e = endpointWindow{duration: d, waiting: wt, expected: ex, errors: errs}
	w.resetStatuses(i)
	return true
}

// resetRest resets the scenarios' and checks' counters.
func (w *window) resetRest() {
	for i := range w.scenarios {
		s := &w.scenarios[i]
		resetDense(s.iterDur)
		resetDense(s.lag)
		s.iterations, s.dropped, s.offered = 0, 0, 0
		s.notSent, s.notSentN = s.notSent[:0], 0
	}
	clear(w.checks)
	for _, h := range w.groups {
		resetDense(h)
	}
	w.resetMetrics()
}

func resetDense(h *hdr.Histogram) {
	if h != nil && h.TotalCount() > 0 {
		h.Reset()
	}
}
