package metrics

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// maxGroupSamples is how many distinct messages a whole-run error group
// keeps, as a second does: what the target said, bounded however many
// different things it said (the rest count in ErrorGroup.Others).
const maxGroupSamples = MaxErrorSamples

// Run is the whole-run model: totals per endpoint, scenario and check, plus
// a few figures per second. It keeps no per-second histograms, so it grows
// with run time only by one small Second per second added.
type Run struct {
	Layout    sample.Layout
	Endpoints []EndpointTotal // indexed by endpoint id
	Scenarios []ScenarioTotal // indexed by scenario id
	Checks    []CheckTotal    // indexed by check id
	Groups    []GroupTotal    // indexed by group id
	Metrics   []MetricSecond  // indexed by custom metric series id: the run's totals
	Series    []Second        // one per snapshot added, in the order added

	elapsed  time.Duration // 0: derived from the number of seconds
	scratch  Hist          // reused to merge endpoints for per-second figures
	sessions Hist          // reused to merge the session endpoints' lengths (Second.Sessions)
	latency  []bool        // Layout.Latencies, made once
}

// EndpointTotal is everything one endpoint did during the run.
type EndpointTotal struct {
	Figures
	Errors    []ErrorGroup // one per failure kind that occurred, in kind order
	Redirects int64        // redirects followed inside the requests (each one a request the target got)
	// FirstSec and LastSec are the first and last seconds with requests;
	// they mean something only when Requests > 0.
	FirstSec, LastSec int
	// Sends is when its requests were sent and the last one ended (see
	// Run.Active); not Kept when a second of an earlier build lacked it.
	Sends Sends

	open  bool          // its scenario is arrival-rate: sends follow a schedule, not answers
	total bool          // Total's: Active runs until the last of its endpoints was asked
	until time.Duration // then
}

// ErrorGroup summarizes the failures of one kind over a run.
type ErrorGroup struct {
	Kind    sample.Kind
	Count   int64         // every failure of the kind
	First   int           // the first second with such a failure
	Last    int           // the last second with such a failure
	Samples []ErrorSample // up to 3 distinct (status, message), with the counts sampled and the first second of each
}

// Others is how many of the group's failures no sample counts: other
// messages, and a kept message's in seconds that had three others first.
func (g *ErrorGroup) Others() int64 {
	n := g.Count
	for _, s := range g.Samples {
		n -= s.Count
	}
	return max(n, 0)
}

// ScenarioTotal is everything one scenario did during the run.
type ScenarioTotal struct {
	Iterations int64
	Dropped    int64
	// NotSent is the iterations that ended before a request of theirs was
	// sent (counted in Iterations too, as k6 counts an iteration its
	// script threw in); NotSentWhy the most counted of their reasons, with
	// the first second each was seen in (docs/accounting.md).
	NotSent    int64
	NotSentWhy []ErrorSample
	// VUsMin and VUsLast are the VU gauge's least and last value while the
	// scenario ran: seconds with no VU after its last with some (its VUs
	// had stopped) are left out, as k6's vus gauge is sampled only while
	// running. VUsMax is over every second.
	VUsMin            int64
	VUsMax            int64
	VUsLast           int64
	VUsMaxAllocated   int64
	IterationDuration *Hist // nil when no iteration completed
	Lag               *Hist // nil when no lag was recorded

	idle bool // no VU ran in the seconds since the last with some
}

// GroupTotal is the runs of one flow group over the run.
type GroupTotal struct {
	Duration *Hist // group_duration; nil when no run of the group ended
}

// CheckTotal is the outcomes of one check over the run (or a second of
// it), and what it read (see CheckSecond).
type CheckTotal struct {
	Passes, Fails    int64
	NotJSON, NoValue int64         `json:",omitempty"`
	Statuses         []CheckStatus `json:",omitempty"`
}

// Second is the small set of figures kept for every second of a run.
type Second struct {
	Sec        int
	Requests   int64
	Failed     int64
	Failures   [sample.NumKinds]int64 // Failed by outcome kind; Failures[sample.OK] stays 0
	Truncated  int64                  // bodies longer than their step's max_body
	Dropped    int64
	Iterations int64
	VUs        int64 // active VUs of all scenarios
	VUsMax     int64 // allocated VUs of all scenarios
	Sent       int64
	Received   int64
	// Request durations of the latency endpoints merged (Run.Latency):
	// sessions' lengths are left out. Latencies is how many they are.
	P50, P90, P95, P99, Max, Mean time.Duration
	Latencies                     int64
	LagP99                        time.Duration // scheduler lag of all scenarios merged
	// SentFrom and SentTo are the seconds the earliest and latest of its
	// requests were sent in (their intended starts): a request is recorded
	// in the second it ended, a timeout seconds after it was sent. SentTo
	// is Sec in a run.db of an earlier build, which kept only the earliest;
	// both are Sec in a second without requests.
	SentFrom, SentTo int
	// Sessions are the lengths of the session endpoints' samples merged
	// (SSE, WebSocket), which the latency above leaves out: a run of
	// sessions alone charts these instead of no latency at all.
	Sessions    SessionLengths
	PerEndpoint []EndpointFigures
	PerScenario []ScenarioFigures // by scenario id
	Checks      []CheckTotal      // each check's outcomes in this second, by check id
}

// SessionLengths are percentiles of the sessions that ended in one second,
// each timed from its intended start to its close; Count is how many.
type SessionLengths struct {
	P50, P90, P95, P99, Max time.Duration
	Count                   int64
}

// ScenarioFigures is one scenario's figures of one second: what the
// offered load is computed from, each scenario at its own requests per iteration.
type ScenarioFigures struct {
	Iterations, Dropped int64
	Offered             int64         // arrivals its schedule offered, by intended start (ScenarioSecond.Offered)
	VUs                 int64         // the most busy at once in the second
	IterationMean       time.Duration // mean duration of the iterations completed in the second
}

// EndpointFigures is one endpoint's figures of one second.
type EndpointFigures struct {
	Requests, Failed int64
	P50, P95, P99    time.Duration
}

// NewRun returns an empty run model for layout.
func NewRun(layout sample.Layout) *Run {
	r := &Run{
		Layout:    layout,
		Endpoints: make([]EndpointTotal, len(layout.Endpoints)),
		Scenarios: make([]ScenarioTotal, len(layout.Scenarios)),
		Checks:    make([]CheckTotal, len(layout.Checks)),
		Groups:    make([]GroupTotal, len(layout.Groups)),
		Metrics:   make([]MetricSecond, len(layout.Metrics)),
		latency:   layout.Latencies(),
	}
	for i, e := range layout.Endpoints {
		if sc := int(e.Scenario); sc >= 0 && sc < len(layout.Scenarios) {
			r.Endpoints[i].open = layout.Scenarios[sc].Model == "arrival-rate"
		}
	}
	return r
}

// SetElapsed sets the run length that per-second rates divide by.
func (r *Run) SetElapsed(d time.Duration) { r.elapsed = d }

// Elapsed returns the run length: as set, else one second per snapshot added.
func (r *Run) Elapsed() time.Duration {
	if r.elapsed > 0 {
		return r.elapsed
	}
	return time.Duration(len(r.Series)) * time.Second
}

// Add merges one second's snapshot into the totals and appends its figures
// to Series. It panics if s does not fit the layout (see CheckLayout).
func (r *Run) Add(s *Snapshot) { r.AddPausing(s, func() {}) }

// AddPausing is Add calling pause after each busy endpoint's merge into the
// totals, so a caller sharing one P with the VUs can let them run; nothing
// else may use r until it returns.
func (r *Run) AddPausing(s *Snapshot, pause func()) {
	if err := s.CheckLayout(r.Layout); err != nil {
		panic("metrics: Run.Add: " + err.Error())
	}
	sec := Second{Sec: s.Second, SentFrom: s.Second, SentTo: -1, PerEndpoint: make([]EndpointFigures, len(s.Endpoints)),
		PerScenario: make([]ScenarioFigures, len(s.Scenarios))}
	r.scratch.Reset()
	r.sessions.Reset()
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		r.Endpoints[i].add(e, s.Second)
		sec.sent(e)
		failed := totalFailures(&e.Failures)
		sec.Requests += e.Requests
		sec.Failed += failed
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			sec.Failures[k] += e.Failures[k]
		}
		sec.Truncated += e.Truncated
		sec.Sent += e.Sent
		sec.Received += e.Received
		sec.PerEndpoint[i] = EndpointFigures{Requests: e.Requests, Failed: failed,
			P50: e.Duration.Quantile(50), P95: e.Duration.Quantile(95), P99: e.Duration.Quantile(99)}
		if r.Latency(i) {
			r.scratch.Merge(e.Duration)
			sec.Latencies += e.Duration.Count()
		} else {
			r.sessions.Merge(e.Duration)
		}
		if e.Requests > 0 {
			pause()
		}
	}
	if sec.SentTo < 0 {
		sec.SentTo = sec.Sec
	}
	sec.P50, sec.P90, sec.P95, sec.P99 = r.scratch.Quantile(50), r.scratch.Quantile(90), r.scratch.Quantile(95), r.scratch.Quantile(99)
	sec.Max, sec.Mean = r.scratch.Max(), r.scratch.Mean()
	h := &r.sessions
	sec.Sessions = SessionLengths{P50: h.Quantile(50), P90: h.Quantile(90), P95: h.Quantile(95), P99: h.Quantile(99), Max: h.Max(), Count: h.Count()}
	r.scratch.Reset()
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		r.Scenarios[i].add(sc, len(r.Series) == 0, s.Second)
		sec.Iterations += sc.Iterations
		sec.Dropped += sc.Dropped
		sec.PerScenario[i] = ScenarioFigures{Iterations: sc.Iterations, Dropped: sc.Dropped, Offered: sc.Offered, VUs: sc.VUs,
			IterationMean: sc.IterationDuration.Mean()}
		sec.VUs += sc.VUs
		sec.VUsMax += sc.VUsMax
		r.scratch.Merge(sc.Lag)
	}
	sec.LagP99 = r.scratch.Quantile(99)
	for i := range s.Groups {
		if i < len(r.Groups) {
			r.Groups[i].Duration = mergeHist(r.Groups[i].Duration, s.Groups[i].Duration)
		}
	}
	for i := range s.Metrics {
		if i < len(r.Metrics) {
			r.Metrics[i].Merge(&s.Metrics[i])
		}
	}
	sec.Checks = make([]CheckTotal, len(s.Checks))
	for i := range s.Checks {
		(*CheckSecond)(&r.Checks[i]).merge(&s.Checks[i])
		(*CheckSecond)(&sec.Checks[i]).merge(&s.Checks[i]) // a copy of its statuses: the snapshot's may change
	}
	r.Series = append(r.Series, sec)
}

// sent widens the seconds the second's requests were sent in by e's;
// SentTo is -1 until one is known, and Sec once one is not.
func (sec *Second) sent(e *EndpointSecond) {
	if e.Requests == 0 {
		return
	}
	sec.SentFrom = min(sec.SentFrom, firstSecond(e, sec.Sec))
	last := sec.Sec // an earlier build's: not kept
	if e.Sends.Kept {
		last = min(max(int(e.Sends.LastStart/time.Second), 0), sec.Sec) // a request ends after it is sent
	}
	sec.SentTo = max(sec.SentTo, last)
}

func totalFailures(f *[sample.NumKinds]int64) int64 {
	var n int64
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		n += f[k]
	}
	return n
}

func (t *EndpointTotal) add(e *EndpointSecond, sec int) {
	t.active(e.Requests, firstSecond(e, sec), sec)
	t.Sends.add(t.Requests, e.Requests, e.Sends)
	t.Figures.merge(&e.Figures)
	t.Redirects += e.Redirects
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if e.Failures[k] == 0 {
			continue
		}
		g := t.group(k)
		if g.Count == 0 {
			g.First, g.Last = sec, sec
		}
		g.Count += e.Failures[k]
		g.First, g.Last = min(g.First, sec), max(g.Last, sec)
		for _, es := range e.Errors {
			if es.Kind == k {
				es.First = sec
				g.Samples = addErrorSample(g.Samples, es, maxGroupSamples)
			}
		}
	}
}

// firstSecond is the second the earliest of an endpoint's requests recorded
// in sec was sent in: a request is recorded in the second it ended (a slow
// one, a timeout, or one cut off by the end of the run), though it was in
// flight since its intended start, so the endpoint was active from then.
func firstSecond(e *EndpointSecond, sec int) int {
	back := int(math.Ceil(e.StartedBefore.Seconds()))
	return max(0, sec-back)
}

// active widens the seconds with requests by first..last when n > 0
// requests were made in them; call it before adding n to t.Requests.
func (t *EndpointTotal) active(n int64, first, last int) {
	switch {
	case n == 0:
	case t.Requests == 0:
		t.FirstSec, t.LastSec = first, last
	default:
		t.FirstSec, t.LastSec = min(t.FirstSec, first), max(t.LastSec, last)
	}
}

// Active returns how long e (an endpoint's totals, or Total's) was sent
// to, which its rate divides by, not the whole run: so an endpoint of a
// scenario that ran 10 s of a 13 s run shows its own rate. It runs from
// its first request's intended start until its last one ended (4 VUs
// whose one request each took 1.5 s were active 1.5 s), or in the open
// model when its next one was due if that is later (n requests, n
// intervals: 1,000 sent 10 ms apart, 100/s, are active 10 s); so a target
// that fell behind its arrivals is rated at what it served, the drain
// included, not at what it was offered (Sends.until). It is 0 when that is no
// rate: no requests, or one. A run.db of an earlier build, which kept no
// send times, gives the seconds with requests as it did: from the start
// of the first to the end of the last, the run's last second only as far
// as the run lasted.
func (r *Run) Active(e *EndpointTotal) time.Duration {
	if e.Requests == 0 {
		return 0
	}
	if e.Sends.Kept {
		until := e.Sends.until(e.Requests, e.open, e.quickest())
		if e.total {
			until = e.until
		}
		return max(until-e.Sends.FirstStart, 0)
	}
	start, end := time.Duration(e.FirstSec)*time.Second, time.Duration(e.LastSec+1)*time.Second
	if el := r.Elapsed(); el < end && el > time.Duration(e.LastSec)*time.Second {
		end = el // the run's last, partial second
	}
	return end - start
}

// MinRateSpan is the shortest span a per-endpoint rate is made over: six
// requests that went out within 189 µs are 6/s, the most any second had,
// not 31,669/s (a trial's data file that made every URL unsendable). An
// endpoint active less than a second is rated over one.
const MinRateSpan = time.Second

// Rate returns e's requests per second of Active, at least MinRateSpan of
// it: the rate every endpoint table shows. It is 0, no rate, when Active is
// (no requests, or one).
func (r *Run) Rate(e *EndpointTotal) float64 {
	act := r.Active(e)
	if act == 0 {
		return 0
	}
	return float64(e.Requests) / max(act, MinRateSpan).Seconds()
}

// MinCovered is the shortest share of a last second cut short that a rate
// is made of: a whole one. A part second holds the graceful stop's answers
// (completions, not arrivals: 2 in 0.25 s charted 8/s against 4/s offered)
// or a handful of requests, so any rate of it would invent a spike, and its
// count alone a drop. The pages' charts leave it out (web's LL.perSecond
// copies this); the totals keep its counts.
const MinCovered = 1.0

// Covered returns the share of second i of Series (0 < share ≤ 1) that
// the run lasted: 1 but for a last second the run's end cut short, whose
// counts cover only that share of it. A rate of that second divides its
// counts by this, so a short last second does not chart as a drop.
func (r *Run) Covered(i int) float64 {
	if i < 0 || i >= len(r.Series) {
		return 1
	}
	into := r.Elapsed() - time.Duration(r.Series[i].Sec)*time.Second
	if into <= 0 || into >= time.Second {
		return 1 // a whole second, or one past the recorded end (a run that did not finish)
	}
	return into.Seconds()
}

// group returns the error group of kind k, inserting it in kind order.
func (t *EndpointTotal) group(k sample.Kind) *ErrorGroup {
	i := 0
	for ; i < len(t.Errors) && t.Errors[i].Kind <= k; i++ {
		if t.Errors[i].Kind == k {
			return &t.Errors[i]
		}
	}
	t.Errors = append(t.Errors, ErrorGroup{})
	copy(t.Errors[i+1:], t.Errors[i:])
	t.Errors[i] = ErrorGroup{Kind: k}
	return &t.Errors[i]
}

func (t *ScenarioTotal) add(s *ScenarioSecond, first bool, sec int) {
	t.Iterations += s.Iterations
	t.Dropped += s.Dropped
	t.NotSent += s.NotSent
	for _, es := range s.NotSentWhy {
		es.First = sec
		t.NotSentWhy = addErrorSample(t.NotSentWhy, es, MaxErrorSamples)
	}
	t.addVUs(s.VUs, first)
	t.VUsMaxAllocated = max(t.VUsMaxAllocated, s.VUsMax)
	t.IterationDuration = mergeHist(t.IterationDuration, s.IterationDuration)
	t.Lag = mergeHist(t.Lag, s.Lag)
}

// addVUs adds a second's VU gauge v; first says it is the first second.
func (t *ScenarioTotal) addVUs(v int64, first bool) {
	t.VUsMax = max(t.VUsMax, v)
	if v == 0 && !first {
		t.idle = true // the 0 counts only if VUs run again later
		return
	}
	switch {
	case first:
		t.VUsMin = v
	case t.idle:
		t.VUsMin = 0 // VUs ran again after none did: the 0 was while running
	}
	t.idle = false
	t.VUsMin = min(t.VUsMin, v)
	t.VUsLast = v
}

// VUs returns the run's vus gauge, the sum over scenarios per second: its
// last value, least and most while the run's VUs ran. Seconds with no VU
// after the last with some are left out: they were collected after the
// VUs had stopped (the run's last, partial second, or its graceful stop),
// and a steady 2-VU run does not have a minimum of 0.
func (r *Run) VUs() (last, lo, hi int64) {
	n := len(r.Series)
	for n > 1 && r.Series[n-1].VUs == 0 {
		n--
	}
	for i, s := range r.Series {
		if i == 0 || i < n && s.VUs < lo {
			lo = s.VUs
		}
		hi = max(hi, s.VUs)
	}
	if n > 0 {
		last = r.Series[n-1].VUs
	}
	return last, lo, hi
}

// Total returns all endpoints merged exactly: counts add and histograms
// merge, the durations' (Duration, Waiting, Expected) of the latency
// endpoints alone (Latency), so that a session's length is no request's
// latency while it still counts as a request. Error groups of a kind
// combine, keeping up to 3 samples.
func (r *Run) Total() EndpointTotal {
	t := EndpointTotal{total: true}
	for i := range r.Endpoints {
		e := &r.Endpoints[i]
		t.active(e.Requests, e.FirstSec, e.LastSec)
		t.Sends.add(t.Requests, e.Requests, e.Sends)
		t.until = max(t.until, e.Sends.until(e.Requests, e.open, e.quickest()))
		f := &e.Figures
		if !r.Latency(i) {
			counted := e.Figures
			counted.Duration, counted.Waiting, counted.Expected = nil, nil, nil
			f = &counted
		}
		t.Figures.merge(f)
		t.Redirects += e.Redirects
		for _, eg := range e.Errors {
			g := t.group(eg.Kind)
			if g.Count == 0 {
				g.First, g.Last = eg.First, eg.Last
			}
			g.Count += eg.Count
			g.First, g.Last = min(g.First, eg.First), max(g.Last, eg.Last)
			for _, es := range eg.Samples {
				g.Samples = addErrorSample(g.Samples, es, maxGroupSamples)
			}
		}
	}
	return t
}

// Latency reports whether endpoint i's durations are the run's latency
// (sample.Layout.Latencies): an HTTP endpoint's, or in a test without one,
// a call's (gRPC); never a session's (SSE, WebSocket).
func (r *Run) Latency(i int) bool {
	if len(r.latency) != len(r.Layout.Endpoints) {
		return r.Layout.Latencies()[i] // a Run not made by NewRun; not cached, as readers may share it
	}
	return r.latency[i]
}

// LatencyOf names what the run's latency is of: "requests" (HTTP), "calls"
// (a test whose only endpoints that are no sessions are gRPC calls), or ""
// when it has none (sessions alone).
func (r *Run) LatencyOf() string {
	of := ""
	for i := range r.Layout.Endpoints {
		switch {
		case !r.Latency(i):
		case r.Layout.Endpoints[i].Protocol == "":
			return "requests"
		default:
			of = "calls"
		}
	}
	return of
}

// quickest is the endpoint's fastest answer (0 when none was timed): how
// long any of its requests took at the least, which its last one's end
// less that cannot be past when the target kept up (Sends.until).
func (t *EndpointTotal) quickest() time.Duration {
	if t.Duration == nil || t.Duration.Count() == 0 {
		return 0
	}
	return t.Duration.Min()
}
