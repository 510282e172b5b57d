package metrics

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// MaxErrorSamples is how many distinct error samples a second keeps per
// endpoint and kind: enough to show what went wrong, bounded under floods.
const MaxErrorSamples = 3

// Snapshot is everything measured during one second of a run.
type Snapshot struct {
	Second    int
	Endpoints []EndpointSecond // indexed by endpoint id
	Scenarios []ScenarioSecond // indexed by scenario id
	Checks    []CheckSecond    // indexed by check id
	Groups    []GroupSecond    // indexed by group id; none in snapshots of format 4 or earlier
	Metrics   []MetricSecond   // indexed by custom metric series id; none before format 6
}

// GroupSecond is the runs of one flow group that ended during one second.
type GroupSecond struct {
	Duration *Hist // group_duration; nil when no run of the group ended
}

// EndpointSecond is what one endpoint did during one second.
type EndpointSecond struct {
	Figures
	Errors []ErrorSample // up to 3 distinct (status, message) per kind
	// Redirects is how many redirects the requests followed: each is a
	// request the target received inside one sample (one per chain).
	Redirects int64
	// StartedBefore is how long before the second began its earliest
	// request was sent (its intended start); 0 when all were sent within
	// it. A request is recorded in the second it ended in, so this is what
	// makes a slow endpoint active from when it was asked, not answered.
	StartedBefore time.Duration
	// Sends is when its requests were sent and the last one ended: what
	// an endpoint's rate is over (Run.Active).
	Sends Sends
}

// ErrorSample is one distinct failure of a second and how often exactly this
// (kind, status, message) occurred; other messages of the kind count only in
// EndpointSecond.Failures.
type ErrorSample struct {
	Kind    sample.Kind
	Status  int
	Message string
	Count   int64
	// First is the first second the message was seen in, in a run's
	// ErrorGroup; a snapshot's samples are of its second and leave it 0.
	First int
}

// ScenarioSecond is what one scenario did during one second.
type ScenarioSecond struct {
	Iterations int64
	Dropped    int64
	// Offered is the arrivals the open-model schedule offered in the second,
	// by their intended start: those started and those dropped. It is what
	// the schedule asked for, which completions (Iterations) are not: a
	// target that stalls then drains completes a second's worth late.
	// Always 0 for a closed scenario, and in snapshots of format 3 or earlier.
	// A run's collector sets it from the schedule (SetOffered): a record
	// made after its second was collected (a scheduler far behind) would
	// count in the next second collected.
	Offered int64
	// NotSent is the iterations a request not sent ended (sample.Sink's
	// NotSent), counted in Iterations too; NotSentWhy keeps up to 3 of
	// their reasons, Kind Other, with their counts. Snapshot format 8.
	NotSent           int64
	NotSentWhy        []ErrorSample
	VUs               int64 // gauge: the most VUs active at once in the second (sample.Gauge.Peak)
	VUsMax            int64 // gauge: allocated VUs, set from sample.Gauge.Allocated
	IterationDuration *Hist // nil when no iterations completed
	Lag               *Hist // nil when no lag was recorded
}

// CheckSecond is the outcomes of one check during one second.
type CheckSecond struct {
	Passes, Fails int64
	// NotJSON and NoValue are the failures on a body that was not JSON the
	// decoder reads, and on a JSON body with no value at the check's path
	// (of Fails); Statuses its outcomes by the answer's status, at most
	// maxCheckStatuses. Snapshot format 9; none in earlier ones.
	NotJSON, NoValue int64         `json:",omitempty"`
	Statuses         []CheckStatus `json:",omitempty"`
}

// NewSnapshot returns an empty snapshot of the given second sized for layout.
func NewSnapshot(sec int, layout sample.Layout) *Snapshot {
	return &Snapshot{
		Second:    sec,
		Endpoints: make([]EndpointSecond, len(layout.Endpoints)),
		Scenarios: make([]ScenarioSecond, len(layout.Scenarios)),
		Checks:    make([]CheckSecond, len(layout.Checks)),
		Groups:    make([]GroupSecond, len(layout.Groups)),
		Metrics:   make([]MetricSecond, len(layout.Metrics)),
	}
}

// SetGauges stores the VU gauges of every scenario, indexed by scenario id:
// a second's VUs are the most it had active at once (Peak, or Active when
// that is more), not those left at its end, which a run's last second, or
// a second collected after the engine stopped, reads as none.
func (s *Snapshot) SetGauges(g []sample.Gauge) {
	for i := range s.Scenarios {
		if i < len(g) {
			s.Scenarios[i].VUs = max(g[i].Active, g[i].Peak)
			s.Scenarios[i].VUsMax = g[i].Allocated
		}
	}
}

// SetOffered sets each scenario's offered arrivals from its schedule
// (engine.Engine.Offered), in place of those the scheduler recorded.
func (s *Snapshot) SetOffered(offered []int64) {
	for i := range s.Scenarios {
		if i < len(offered) {
			s.Scenarios[i].Offered = offered[i]
		}
	}
}

// CheckLayout reports whether s has exactly the shape of layout, which
// Merge and Run.Add require; use it on snapshots from files or the network.
func (s *Snapshot) CheckLayout(layout sample.Layout) error {
	if len(s.Groups) != len(layout.Groups) {
		return fmt.Errorf("snapshot of second %d has %d groups; the layout has %d", s.Second, len(s.Groups), len(layout.Groups))
	}
	if len(s.Metrics) != len(layout.Metrics) {
		return fmt.Errorf("snapshot of second %d has %d custom metric series; the layout has %d", s.Second, len(s.Metrics), len(layout.Metrics))
	}
	if len(s.Endpoints) != len(layout.Endpoints) || len(s.Scenarios) != len(layout.Scenarios) || len(s.Checks) != len(layout.Checks) {
		return fmt.Errorf("snapshot of second %d has %d endpoints, %d scenarios and %d checks; the layout has %d, %d and %d",
			s.Second, len(s.Endpoints), len(s.Scenarios), len(s.Checks), len(layout.Endpoints), len(layout.Scenarios), len(layout.Checks))
	}
	return nil
}

// Merge adds o, a snapshot of the same second and layout (say, from another
// agent), into s: counts, histograms and gauges add, and error samples keep
// at most 3 per kind. It panics if the layouts differ (see CheckLayout).
func (s *Snapshot) Merge(o *Snapshot) {
	if len(s.Endpoints) != len(o.Endpoints) || len(s.Scenarios) != len(o.Scenarios) || len(s.Checks) != len(o.Checks) {
		panic(fmt.Sprintf("metrics: merging snapshots of different layouts (%d/%d/%d and %d/%d/%d endpoints/scenarios/checks)",
			len(s.Endpoints), len(s.Scenarios), len(s.Checks), len(o.Endpoints), len(o.Scenarios), len(o.Checks)))
	}
	for i := range s.Endpoints {
		s.Endpoints[i].merge(&o.Endpoints[i])
	}
	for i := range s.Scenarios {
		s.Scenarios[i].merge(&o.Scenarios[i])
	}
	for i := range s.Checks {
		s.Checks[i].merge(&o.Checks[i])
	}
	if len(s.Groups) != len(o.Groups) {
		panic(fmt.Sprintf("metrics: merging snapshots of %d and %d groups", len(s.Groups), len(o.Groups)))
	}
	for i := range s.Groups {
		s.Groups[i].Duration = mergeHist(s.Groups[i].Duration, o.Groups[i].Duration)
	}
	if len(s.Metrics) != len(o.Metrics) {
		panic(fmt.Sprintf("metrics: merging snapshots of %d and %d custom metric series", len(s.Metrics), len(o.Metrics)))
	}
	for i := range s.Metrics {
		s.Metrics[i].Merge(&o.Metrics[i])
	}
}

func (e *EndpointSecond) merge(o *EndpointSecond) {
	e.Sends.add(e.Requests, o.Requests, o.Sends)
	e.Figures.merge(&o.Figures)
	e.Redirects += o.Redirects
	e.StartedBefore = max(e.StartedBefore, o.StartedBefore)
	for _, es := range o.Errors {
		e.Errors = addErrorSample(e.Errors, es, MaxErrorSamples)
	}
}

func (sc *ScenarioSecond) merge(o *ScenarioSecond) {
	sc.Iterations += o.Iterations
	sc.Dropped += o.Dropped
	sc.Offered += o.Offered
	sc.NotSent += o.NotSent
	for _, es := range o.NotSentWhy {
		sc.NotSentWhy = addErrorSample(sc.NotSentWhy, es, MaxErrorSamples)
	}
	sc.VUs += o.VUs
	sc.VUsMax += o.VUsMax
	sc.IterationDuration = mergeHist(sc.IterationDuration, o.IterationDuration)
	sc.Lag = mergeHist(sc.Lag, o.Lag)
}

// mergeHist returns dst with src merged in, allocating dst when it is nil
// so that dst never aliases src.
func mergeHist(dst, src *Hist) *Hist {
	if src.Count() == 0 {
		return dst
	}
	if dst == nil {
		return src.Clone()
	}
	dst.Merge(src)
	return dst
}

// addErrorSample adds es to list: into the entry with the same kind, status
// and message but for its volatile parts (sameCause), keeping that entry's
// message, else as a new entry while its kind has fewer than limit,
// else in place of the kind's least counted entry when es counts more, so
// that a message the target said often, but only once others had filled
// the list (a pool that ran dry after a few 404s), is not lost to them.
func addErrorSample(list []ErrorSample, es ErrorSample, limit int) []ErrorSample {
	n, least := 0, -1
	for i := range list {
		if list[i].Kind != es.Kind {
			continue
		}
		if list[i].Status == es.Status && sameCause(list[i].Message, es.Message) {
			list[i].Count += es.Count
			list[i].First = min(list[i].First, es.First)
			return list
		}
		if least < 0 || list[i].Count < list[least].Count {
			least = i
		}
		n++
	}
	switch {
	case n < limit:
		return append(list, es)
	case least >= 0 && es.Count > list[least].Count:
		list[least] = es
	}
	return list
}
