package compare

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// Metric is one compared figure.
type Metric uint8

// The compared figures, in table order.
const (
	TPS       Metric = iota // requests per second
	Succeeded               // successful (not failed) requests per second
	P50                     // median request duration
	P95                     // 95th percentile request duration
	P99                     // 99th percentile request duration
	ErrorRate               // failed requests / requests
	CheckRate               // passed checks / checks
	numMetrics
)

// String names the metric as tables show it.
func (m Metric) String() string {
	switch m {
	case TPS:
		return "req/s"
	case Succeeded:
		return "successful req/s"
	case P50:
		return "p50"
	case P95:
		return "p95"
	case P99:
		return "p99"
	case ErrorRate:
		return "errors"
	case CheckRate:
		return "checks"
	}
	if name, ok := m.sessionName(); ok {
		return name
	}
	return fmt.Sprintf("metric(%d)", uint8(m))
}

// MarshalJSON writes the metric's name.
func (m Metric) MarshalJSON() ([]byte, error) { return json.Marshal(m.String()) }

// HigherIsBetter reports whether a rise of the metric is an improvement.
func (m Metric) HigherIsBetter() bool {
	b := m.Base()
	return b == TPS || b == Succeeded || b == CheckRate
}

// isRate reports whether the metric is requests per second.
func (m Metric) isRate() bool { b := m.Base(); return b == TPS || b == Succeeded }

// percentile is the quantile of a latency metric.
func (m Metric) percentile() float64 {
	switch m.Base() {
	case P50:
		return 50
	case P95:
		return 95
	}
	return 99
}

// isRatio reports whether the metric is a ratio, whose changes are judged
// and shown in percentage points; the others change by a relative amount.
func (m Metric) isRatio() bool { b := m.Base(); return b == ErrorRate || b == CheckRate }

// allEndpoints names the row of every endpoint merged.
const allEndpoints = "all endpoints"

// runView is one run's compared seconds: exact figures and, per row, the
// seconds to resample.
type runView struct {
	info     RunInfo
	run      *metrics.Run
	exact    *metrics.Run  // the compared seconds, or the whole run without snapshots
	rows     []*rowSeconds // per row (0: all endpoints, k: key k-1); nil when the run lacks the endpoint
	endpoint []int         // per row, the endpoint id (-1: all)
	first    int           // index into run.Series of the first compared second
	last     int
	iters    int64 // iterations completed over the compared seconds
	res      []*resampled
	total    *metrics.Hist     // every endpoint's durations merged, once
	feed     feed              // what its seconds count: requests, or a session fact
	feeds    map[feed]*runView // views of the same seconds counting the session facts; nil without any
	lag      *lagLevels        // the generator's scheduler lag over the compared seconds, shared with the feeds' views
}

// endpointKeys names every endpoint of every run for matching across runs:
// its name, with the scenario when any run has several scenarios. It
// returns the keys in the order runs define them, and per run key → id.
func endpointKeys(ins []Input) ([]string, []map[string]int) {
	withScenario := false
	for _, in := range ins {
		withScenario = withScenario || len(in.Run.Layout.Scenarios) > 1
	}
	var keys []string
	index := make([]map[string]int, len(ins))
	seen := map[string]bool{}
	for i, in := range ins {
		index[i] = map[string]int{}
		for e, ep := range in.Run.Layout.Endpoints {
			k := ep.Name
			if withScenario {
				sc := ""
				if int(ep.Scenario) < len(in.Run.Layout.Scenarios) {
					sc = in.Run.Layout.Scenarios[ep.Scenario].Name
				}
				k = sc + scenarioSep + ep.Name
			}
			index[i][k] = e
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys, index
}

// readView reads a run's compared seconds: from its snapshots when it has
// them (exact percentiles and checks, histograms to resample), else from
// its per-second series (counts only).
func readView(in Input, info RunInfo, index map[string]int, keys []string, feeds []feed) (*runView, error) {
	v := &runView{info: info, run: in.Run, exact: in.Run, first: -1, lag: &lagLevels{}}
	for i, s := range in.Run.Series {
		if s.Sec == info.First && v.first < 0 {
			v.first = i
		}
		if s.Sec == info.Last {
			v.last = i
		}
	}
	v.endpoint = []int{-1}
	for _, k := range keys {
		e, ok := index[k]
		if !ok {
			e = -2
		}
		v.endpoint = append(v.endpoint, e)
	}
	v.rows = make([]*rowSeconds, len(v.endpoint))
	for r, e := range v.endpoint {
		if e != -2 {
			v.rows[r] = &rowSeconds{hasLat: in.Snapshots != nil, hasChk: in.Snapshots != nil}
		}
	}
	v.res = make([]*resampled, len(v.rows))
	for _, s := range in.Run.Series[v.first : v.last+1] {
		v.iters += s.Iterations
	}
	if in.Snapshots == nil {
		v.fromSeries()
		*v.lag = seriesLag(in.Run.Series, info)
		return v, nil
	}
	var lags lagSeconds
	v.exact = metrics.NewRun(in.Run.Layout)
	v.makeFeeds(feeds)
	err := in.Snapshots(func(s *metrics.Snapshot) error {
		if s.Second < info.First || s.Second > info.Last {
			return nil
		}
		if err := s.CheckLayout(in.Run.Layout); err != nil {
			return err
		}
		v.exact.Add(s)
		lags.add(s)
		v.addSnapshot(s)
		for _, fv := range v.feeds {
			fv.addSnapshot(s)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("compare: %s: reading seconds %d–%d: %w", in.Name, info.First, info.Last, err)
	}
	if got, want := len(v.exact.Series), v.last-v.first+1; got != want {
		return nil, fmt.Errorf("compare: %s: %d stored seconds between %d and %d, but the run has %d", in.Name, got, info.First, info.Last, want)
	}
	*v.lag = lags.levels()
	v.finish()
	for _, fv := range v.feeds {
		fv.finish()
	}
	return v, nil
}

// finish readies every row's seconds to resample.
func (v *runView) finish() {
	for _, rs := range v.rows {
		if rs != nil {
			rs.finish()
		}
	}
}

// fromSeries fills the rows from the per-second series: requests and
// failures only.
func (v *runView) fromSeries() {
	for _, s := range v.run.Series[v.first : v.last+1] {
		for r, e := range v.endpoint {
			rs := v.rows[r]
			if rs == nil {
				continue
			}
			sec := second{reqs: s.Requests, failed: s.Failed}
			if e >= 0 && e < len(s.PerEndpoint) {
				sec = second{reqs: s.PerEndpoint[e].Requests, failed: s.PerEndpoint[e].Failed}
			}
			rs.secs = append(rs.secs, sec)
		}
	}
}

// addSnapshot adds one compared second to every row.
func (v *runView) addSnapshot(s *metrics.Snapshot) {
	layout := v.run.Layout
	for r, e := range v.endpoint {
		rs := v.rows[r]
		if rs == nil {
			continue
		}
		var sec second
		for id := range s.Endpoints {
			if e >= 0 && id != e {
				continue
			}
			es := &s.Endpoints[id]
			if v.feed != feedRequests {
				if v.session(id) {
					v.addFeed(&sec, es)
				}
				continue
			}
			sec.reqs += es.Requests
			for k := sample.OK + 1; k < sample.NumKinds; k++ {
				sec.failed += es.Failures[k]
			}
			sec.lat = addHist(sec.lat, es.Duration)
		}
		sec.lat = compact(sec.lat)
		for c, info := range layout.Checks {
			if v.feed == feedRequests && c < len(s.Checks) && (e < 0 || int(info.Endpoint) == e) {
				sec.passes += s.Checks[c].Passes
				sec.fails += s.Checks[c].Fails
			}
		}
		rs.secs = append(rs.secs, sec)
	}
}

// value is the run's exact figure of metric m in row r, and whether it has one.
func (v *runView) value(r int, m Metric) (float64, bool) {
	rs := v.rows[r]
	if rs == nil || len(rs.secs) == 0 {
		return 0, false
	}
	reqs, failed := v.counts(r)
	e := v.endpoint[r]
	switch m {
	case TPS:
		return float64(reqs) / float64(len(rs.secs)), true
	case Succeeded:
		return float64(reqs-failed) / float64(len(rs.secs)), true
	case P50, P95, P99:
		h := v.hist(e)
		if h.Count() == 0 {
			return 0, false
		}
		return ms(h.Quantile(m.percentile())), true
	case ErrorRate:
		if reqs == 0 {
			return 0, false
		}
		return float64(failed) / float64(reqs), true
	case CheckRate:
		var passes, fails int64
		for c, info := range v.exact.Layout.Checks {
			if e < 0 || int(info.Endpoint) == e {
				passes += v.exact.Checks[c].Passes
				fails += v.exact.Checks[c].Fails
			}
		}
		if passes+fails == 0 {
			return 0, false
		}
		return float64(passes) / float64(passes+fails), true
	}
	return 0, false
}

// counts returns row r's requests over the compared seconds and how many failed.
func (v *runView) counts(r int) (reqs, failed int64) {
	if v.rows[r] == nil {
		return 0, 0
	}
	for _, s := range v.rows[r].secs {
		reqs += s.reqs
		failed += s.failed
	}
	return reqs, failed
}

// hist is the exact duration histogram of endpoint e (-1: all) over the
// compared seconds.
func (v *runView) hist(e int) *metrics.Hist {
	if v.feed != feedRequests {
		return v.factHist(e)
	}
	if e < 0 {
		if v.total == nil {
			v.total = v.exact.Total().Duration
		}
		return v.total
	}
	return v.exact.Endpoints[e].Duration
}

// resampled returns row r's bootstrap distribution, drawing it once. The
// seed comes from the row's own seconds, not the run's place among the
// inputs: comparing B with A then resamples each run as comparing A with
// B does, and the interval comes out mirrored, not merely close to it.
func (v *runView) resampled(r, b int) *resampled {
	if v.res[r] == nil && v.rows[r] != nil {
		v.res[r] = resample(v.rows[r], b, v.rows[r].seed()<<8|uint64(r)+1)
	}
	return v.res[r]
}

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
