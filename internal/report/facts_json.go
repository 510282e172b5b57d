package report

import (
	"sort"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// factMetrics adds each session protocol's facts to m under their metric
// names (sse_msgs_received …), as k6 exports a protocol's metrics: the
// facts of every endpoint of the protocol, merged. A run without
// sessions adds none.
func factMetrics(m map[string]map[string]any, r *metrics.Run, counter func(string, int64)) {
	byProto := map[string]*metrics.FactFigures{}
	durations := map[string]*metrics.Hist{} // <protocol>_req_duration, as k6's grpc_req_duration
	for i := range r.Endpoints {
		f := r.Endpoints[i].Facts
		proto := r.Layout.Endpoints[i].Protocol
		if f == nil || proto == "" {
			continue
		}
		if byProto[proto] == nil {
			byProto[proto] = &metrics.FactFigures{}
		}
		byProto[proto].Merge(f)
		durations[proto] = mergedHist(durations[proto], r.Endpoints[i].Duration)
	}
	protos := make([]string, 0, len(byProto))
	for p := range byProto {
		protos = append(protos, p)
	}
	sort.Strings(protos)
	for _, p := range protos {
		m[p+"_"+string(sample.FactReqDuration)] = trend(durations[p])
		f := byProto[p]
		for _, x := range sample.AllFacts() {
			name := p + "_" + string(x)
			if x.IsTrend() {
				m[name] = trend(f.Trend(x))
			} else {
				counter(name, f.Count(x))
			}
		}
	}
}

// mergedHist merges h into sum, copying h the first time.
func mergedHist(sum, h *metrics.Hist) *metrics.Hist {
	switch {
	case h == nil || h.Count() == 0:
		return sum
	case sum == nil:
		return h.Clone()
	}
	sum.Merge(h)
	return sum
}
