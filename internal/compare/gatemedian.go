package compare

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/units"
)

// medianMoved is why a tail gate's pass says nothing, or "": its estimate
// is past the limit but its interval reaches back within it, while the
// same figures' p50 rose past the limit with its whole interval, a
// significant change. The whole distribution moved (an endpoint 30 %
// slower on every request read p95 +17.2 % [-3.0 %, +51.0 %] beside p50
// +29.0 % [+27.7 %, +29.9 %] and passed 'p(95) +10%'); the tail's few
// requests only have not resolved it yet.
func (r *Report) medianMoved(g Gate, v Value, group int) string {
	if !g.Relative || g.Sign <= 0 || g.Metric.Base() == P50 || !g.Metric.isLatency() || v.DeltaPct == nil || *v.DeltaPct <= g.Amount {
		return ""
	}
	median := g
	median.Metric = P50
	line, err := r.line(median)
	if err != nil || group >= len(line.Values) {
		return ""
	}
	m := line.Values[group]
	if !m.Significant || m.CIPct == nil || m.DeltaPct == nil || m.CIPct.Lo <= g.Amount {
		return ""
	}
	more := ""
	if v.CIPct != nil && v.CIPct.Lo < g.Amount { // the estimate is past the limit (above)
		k := math.Ceil(math.Pow((*v.DeltaPct-v.CIPct.Lo)/(*v.DeltaPct-g.Amount), 2))
		more = moreData(v, k) + " would resolve it, or "
	}
	return fmt.Sprintf("; but p50 rose %s %s, significantly and wholly past the limit: the whole distribution moved and its tail has not resolved it; %sgate on p(50) too",
		ScaleText(P50, *m.DeltaPct), units.Interval(gateScaleText(P50, true, m.CIPct.Lo), gateScaleText(P50, true, m.CIPct.Hi)), more)
}

// endpointFailed is why a gate without an endpoint fails on one endpoint,
// or "": the all-endpoints line moves by an endpoint's share of the
// requests only (an endpoint of two made 30 % slower read p95 +9.2 % for
// both, within 'p(95) +10%'), and a user who gates p95 means every
// endpoint's. Each endpoint is judged as a gate naming it would be; only
// a failure counts, so endpoints too thin to judge leave the verdict to
// the all-endpoints line.
func (r *Report) endpointFailed(g Gate, group int) string {
	if g.Endpoint != "" || len(r.Rows) <= 2 { // one endpoint: its row is the all-endpoints line
		return ""
	}
	for _, row := range r.Rows[1:] {
		named := g
		named.Endpoint = row.Name
		line, err := r.line(named)
		if err != nil || group >= len(line.Values) || !line.Values[0].Has || !line.Values[group].Has {
			continue // an endpoint one side lacks is no regression of it
		}
		if failed, _, why := judge(named, line.Values[0], line.Values[group], r.hostLag(group)); failed {
			return fmt.Sprintf("%s failed it: %s (a gate without {endpoint:…} judges each endpoint as well as all together)", row.Name, why)
		}
	}
	return ""
}
