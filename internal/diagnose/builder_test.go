package diagnose

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// sec describes one second of a synthetic run.
type sec struct {
	vus, vusMax int64         // the gauges of scenario 0
	dropped     int           // iterations dropped in scenario 0
	offered     int           // arrivals its schedule offered (the engine's record); none: a run.db of an earlier build
	lag         time.Duration // the scheduler lag of every iteration
	reqs        []reqs
	checks      [][2]int64 // passes and fails of each check of the layout
	// reads is each check's whole outcomes, what it read too (in place of checks)
	reads []metrics.CheckSecond
}

// reqs is n requests of one endpoint within a second, each one iteration.
type reqs struct {
	ep   int32
	n    int
	dur  func(i, n int) time.Duration
	fail int // the first fail requests end as kind
	kind sample.Kind
	msg  string // the failures' message; default the kind's name
	cut  int    // the first cut requests' bodies were longer than max_body
	// received is what a failure that got no status received (0: none
	// came; an answer whose body did not end received some)
	received int64
}

// even spreads n durations evenly over mean·(1 ± spread/2): mean stays exact.
func even(mean time.Duration, spread float64) func(i, n int) time.Duration {
	return func(i, n int) time.Duration {
		return time.Duration(float64(mean) * (1 + spread*((float64(i)+0.5)/float64(n)-0.5)))
	}
}

// twoPeaks gives a share of fast requests around fast and the rest around slow.
func twoPeaks(fast, slow time.Duration, fastShare float64) func(i, n int) time.Duration {
	return func(i, n int) time.Duration {
		if float64(i) < fastShare*float64(n) {
			return even(fast, 0.4)(i, int(fastShare*float64(n)))
		}
		return even(slow, 0.4)(i-int(fastShare*float64(n)), n-int(fastShare*float64(n)))
	}
}

// logNormal gives a wide unimodal distribution: median m, shape sigma.
func logNormal(m time.Duration, sigma float64) func(i, n int) time.Duration {
	return func(i, n int) time.Duration {
		return time.Duration(float64(m) * math.Exp(sigma*probit((float64(i)+0.5)/float64(n))))
	}
}

// probit is the standard normal quantile (Acklam's rational approximation,
// good to 1e-9; plenty for test data).
func probit(p float64) float64 {
	a := []float64{-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00}
	b := []float64{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01}
	c := []float64{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00}
	d := []float64{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00}
	switch {
	case p < 0.02425:
		q := math.Sqrt(-2 * math.Log(p))
		return (((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) / ((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	case p > 1-0.02425:
		return -probit(1 - p)
	}
	q := p - 0.5
	r := q * q
	return (((((a[0]*r+a[1])*r+a[2])*r+a[3])*r+a[4])*r + a[5]) * q / (((((b[0]*r+b[1])*r+b[2])*r+b[3])*r+b[4])*r + 1)
}

// layout returns one scenario of the given model with the named endpoints.
func layout(model string, endpoints ...string) sample.Layout {
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: model}}}
	for _, e := range endpoints {
		l.Endpoints = append(l.Endpoints, sample.EndpointInfo{Scenario: 0, Name: e, Method: "GET"})
	}
	return l
}

// snapshotsOf keeps the snapshots each built run was made of, so that the
// figure tests can store the very same seconds in a run.db.
var snapshotsOf sync.Map // *metrics.Run → []*metrics.Snapshot

// build records the seconds through the real Recorder, Collect and Run.Add.
func build(t testing.TB, l sample.Layout, seconds []sec) *metrics.Run {
	t.Helper()
	rec := metrics.NewRecorder(l, 1)
	sink := rec.Sink(0)
	run := metrics.NewRun(l)
	var snaps []*metrics.Snapshot
	defer func() { snapshotsOf.Store(run, snaps) }()
	for s, spec := range seconds {
		base := time.Duration(s) * time.Second
		for _, r := range spec.reqs {
			for i := range r.n {
				end := base + time.Duration(i)*time.Second/time.Duration(r.n)
				req := sample.Request{Endpoint: r.ep, End: end, Duration: r.dur(i, r.n), Status: 200, Sent: 100, Received: 1000}
				if i < r.fail {
					req.Status, req.Kind, req.Err = 0, r.kind, r.kind.String()
					if r.msg != "" {
						req.Err = r.msg
					}
					switch r.kind {
					case sample.HTTP5xx:
						req.Status = 503
					case sample.HTTP4xx:
						req.Status = 409
					default: // no answer came: nothing received
						req.Received = r.received
					}
				}
				req.Truncated = i < r.cut
				sink.Request(&req)
				sink.Iteration(0, end, req.Duration)
				sink.Lag(0, end, spec.lag)
			}
		}
		for i := range spec.dropped {
			sink.Dropped(0, base+time.Duration(i)*time.Second/time.Duration(spec.dropped))
		}
		if spec.offered > 0 {
			sink.Offered(0, base, int64(spec.offered))
		}
		snap := rec.Collect(s)
		snap.SetGauges([]sample.Gauge{{Active: spec.vus, Allocated: max(spec.vusMax, spec.vus)}})
		for i, c := range spec.checks {
			snap.Checks[i].Passes, snap.Checks[i].Fails = c[0], c[1]
		}
		copy(snap.Checks, spec.reads)
		run.Add(snap)
		snaps = append(snaps, snap)
	}
	return run
}

// steady is n seconds of rate requests of mean duration on endpoint 0.
func steady(n, rate int, vus int64, mean time.Duration) []sec {
	out := make([]sec, n)
	for i := range out {
		out[i] = sec{vus: vus, reqs: []reqs{{n: rate, dur: even(mean, 0.5)}}}
	}
	return out
}

// openQueue simulates an open-model test against a server of the given
// capacity (req/s) and service time: offered(t) arrives, what exceeds the
// capacity queues, and latency (from the intended start) grows with the
// queue, as loadlens measures it. Busy VUs are the requests in flight; the
// engine records what the schedule offered.
func openQueue(seconds int, offered func(t int) int, capacity int, service time.Duration) []sec {
	out := make([]sec, seconds)
	backlog := 0
	for t := range out {
		o := offered(t)
		x := min(o+backlog, capacity)
		backlog += o - x
		wait := time.Duration(float64(backlog) / float64(capacity) * float64(time.Second))
		inFlight := backlog + int(float64(x)*service.Seconds())
		out[t] = sec{vus: int64(inFlight), vusMax: 100000, offered: o, reqs: []reqs{{n: x, dur: even(service+wait, 0.3)}}}
	}
	return out
}

// pts makes points from start every step seconds.
func pts(start, step int, values ...float64) []series.Point {
	out := make([]series.Point, len(values))
	for i, v := range values {
		out[i] = series.Point{Sec: start + i*step, Value: v}
	}
	return out
}

// repeat returns v n times.
func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// mk returns a series with labels given as name, value pairs.
func mk(name string, kind series.Kind, points []series.Point, labels ...string) *series.Series {
	s := &series.Series{Name: name, Kind: kind, Points: points}
	for i := 0; i+1 < len(labels); i += 2 {
		s.Labels = append(s.Labels, series.Label{Name: labels[i], Value: labels[i+1]})
	}
	series.SortLabels(s.Labels)
	return s
}
