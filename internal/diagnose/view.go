package diagnose

import (
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/spans"
)

// context is the input prepared once for every rule.
type context struct {
	run    *metrics.Run
	set    series.Set
	secs   []clientSecond // the client view: whole seconds, from the first to the last with requests
	all    []clientSecond // every second of the run, partial ones included
	open   bool           // some scenario is arrival-rate: load is the offered rate
	closed bool           // every scenario is vus or iterations, at least one vus
	whole  int            // seconds before this one are whole; the run ended inside it or later
	first  int            // the run's first second

	offered   []float64                 // open model: requests offered per second of run.Series
	scheduled bool                      // offered is the schedule's, as the engine recorded it; not rebuilt from completions
	vals      map[string][]series.Point // every source's values, computed once
	traces    []spans.Breakdown         // the trace join's breakdowns per endpoint
	names     []string                  // the endpoints' names, also for a run without seconds
	local     []string                  // the scraped targets on loadlens's own host (Input.LocalTargets)
	// queueCause is the full pool that explains the open model's queue
	// (queuecause.go); nil until the pool and thread-pool rules have run.
	queueCause *Finding
}

// clientSecond is one second of the client view in the units rules reason
// in: counts per second and durations in seconds.
type clientSecond struct {
	sec      int
	x        float64 // requests completed: throughput in req/s
	failed   float64
	n        float64 // active VUs over the second (the mean of its VUs and the previous second's; its own at the first second)
	gauge    float64 // the most VUs active at once in the second
	steady   bool    // the second had the VUs the one before had (and it is not the first)
	r        float64 // mean request duration
	p50, p95 float64
	load     float64 // offered req/s when open, else active VUs
	dropped  float64
	// droppedReqs is the requests of the dropped iterations, each scenario
	// at its own requests per iteration.
	droppedReqs float64
	started     float64 // iterations offered (offeredSeries)
	lag         float64 // scheduler lag p99
	m           *metrics.Second
}

// newContext prepares the client view of in.
func newContext(in Input) *context {
	c := &context{run: in.Run, set: in.Series, vals: map[string][]series.Point{}, traces: in.Traces, local: in.LocalTargets}
	if in.Run != nil {
		for i := range in.Run.Layout.Endpoints {
			c.names = append(c.names, endpointNameIn(in.Run.Layout, i))
		}
	}
	if in.Run == nil || len(in.Run.Series) == 0 {
		c.run = nil
		return c
	}
	models := in.Models
	if len(models) != len(in.Run.Layout.Scenarios) {
		models = models[:0:0]
		for _, s := range in.Run.Layout.Scenarios {
			models = append(models, s.Model)
		}
	}
	vus := false
	c.closed = len(models) > 0
	for _, m := range models {
		c.open = c.open || m == modelArrivalRate
		c.closed = c.closed && (m == modelVUs || m == modelIterations)
		vus = vus || m == modelVUs
	}
	c.closed = c.closed && vus
	c.first = in.Run.Series[0].Sec
	// A second is whole when the run lasted to its end; the last one is
	// usually cut short by the stop, and its rates would be too low.
	c.whole = c.first + int((in.Run.Elapsed()+time.Millisecond)/time.Second)

	var droppedReqs, started []float64
	c.offered, droppedReqs, started, c.scheduled = offeredSeries(in.Run, models, c.whole)
	c.all = make([]clientSecond, len(in.Run.Series))
	var prevVUs int64
	for i := range in.Run.Series {
		s := &in.Run.Series[i]
		cs := clientSecond{sec: s.Sec, x: float64(s.Requests), failed: float64(s.Failed), gauge: float64(s.VUs), n: float64(s.VUs),
			r: secs(s.Mean), p50: secs(s.P50), p95: secs(s.P95), dropped: float64(s.Dropped),
			started: started[i], lag: secs(s.LagP99), m: s}
		if i > 0 {
			cs.n = float64(prevVUs+s.VUs) / 2
			cs.steady = prevVUs == s.VUs && s.VUs > 0
		}
		prevVUs = s.VUs
		cs.droppedReqs = droppedReqs[i]
		cs.load = cs.n
		if c.open {
			cs.load = c.offered[i]
		}
		c.all[i] = cs
	}
	first, last := 0, len(c.all)-1
	for first <= last && c.all[first].x == 0 {
		first++
	}
	for last >= first && (c.all[last].x == 0 || c.all[last].sec >= c.whole) {
		last--
	}
	c.secs = c.all[first : last+1]
	return c
}

// secs converts a duration to float seconds.
func secs(d time.Duration) float64 { return d.Seconds() }

// column returns one figure of every second of the client view.
func (c *context) column(f func(*clientSecond) float64) []float64 {
	out := make([]float64, len(c.secs))
	for i := range c.secs {
		out[i] = f(&c.secs[i])
	}
	return out
}

// window returns the seconds of the client view around index i, i−half to
// i+half within the view: the seconds a smoothed value comes from.
func (c *context) window(i, half int) (from, to int) {
	return c.secs[max(i-half, 0)].sec, c.secs[min(i+half, len(c.secs)-1)].sec
}

// vusFigure is the active VUs over the seconds from..to: the median of
// each second's mean with the one before, or of each second's own VUs
// when the window starts at the run's first second, which has none before.
func (c *context) vusFigure(b *builder, from, to int, what string) ref {
	if from > c.first {
		return b.add(c.fig(c.client(SrcVUsAvg), StatMedian, from, to, UnitCount, what))
	}
	return b.add(c.fig(c.client(SrcVUs), StatMedian, from, to, UnitCount, what+" (the most at once in each second)"))
}

// kindByName returns the failure kind with a stable name.
func kindByName(s string) sample.Kind {
	k, _ := sample.ParseKind(s)
	return k
}
