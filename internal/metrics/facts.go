package metrics

import (
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// FactFigures are a session protocol's facts (sample.Facts) summed over
// one second or a whole run: the same fields whatever the protocol, so
// that thresholds and reports read them without a protocol switch.
type FactFigures struct {
	Sessions     int64 // samples that carried facts: one per session
	MsgsSent     int64
	MsgsReceived int64
	Reconnects   int64
	FirstMsg     *Hist // time to first message, of the sessions that received one
	Session      *Hist // session length
	Gap          *Hist // gaps between consecutive messages received
	Reply        *Hist // from a message sent to the reply that answered it, of the sessions that had one
}

// record adds one sample's facts. Sparse histograms: sessions are few
// beside requests, and a dense one would cost ~140 KB per endpoint.
func (f *FactFigures) record(x *sample.Facts) {
	f.Sessions++
	f.MsgsSent += x.MsgsSent
	f.MsgsReceived += x.MsgsReceived
	f.Reconnects += x.Reconnects
	if f.Session == nil {
		f.FirstMsg, f.Session, f.Gap, f.Reply = NewHist(), NewHist(), NewHist(), NewHist()
	}
	if x.Reply > 0 {
		f.Reply.Record(x.Reply)
	}
	f.Session.Record(x.Session)
	if x.MsgsReceived > 0 {
		f.FirstMsg.Record(x.FirstMsg)
	}
	for _, g := range x.Gaps {
		f.Gap.Record(g)
	}
}

// Merge adds o to f; f never aliases o's histograms.
func (f *FactFigures) Merge(o *FactFigures) {
	f.Sessions += o.Sessions
	f.MsgsSent += o.MsgsSent
	f.MsgsReceived += o.MsgsReceived
	f.Reconnects += o.Reconnects
	f.FirstMsg = mergeHist(f.FirstMsg, o.FirstMsg)
	f.Session = mergeHist(f.Session, o.Session)
	f.Gap = mergeHist(f.Gap, o.Gap)
	f.Reply = mergeHist(f.Reply, o.Reply)
}

// mergeFacts returns dst with src merged in: nil while both are nil, so an
// HTTP endpoint carries none.
func mergeFacts(dst, src *FactFigures) *FactFigures {
	if src == nil {
		return dst
	}
	if dst == nil {
		dst = &FactFigures{}
	}
	dst.Merge(src)
	return dst
}

// Count returns a counting fact's value.
func (f *FactFigures) Count(x sample.Fact) int64 {
	switch x {
	case sample.FactSessions:
		return f.Sessions
	case sample.FactMsgsSent:
		return f.MsgsSent
	case sample.FactMsgsReceived:
		return f.MsgsReceived
	case sample.FactReconnects:
		return f.Reconnects
	}
	return 0
}

// Trend returns a trend fact's histogram; nil when none was recorded.
func (f *FactFigures) Trend(x sample.Fact) *Hist {
	switch x {
	case sample.FactFirstMsg:
		return f.FirstMsg
	case sample.FactSession:
		return f.Session
	case sample.FactGap:
		return f.Gap
	case sample.FactReply:
		return f.Reply
	}
	return nil
}

// observeFact is a threshold's value on a session protocol's fact: the
// facts of the protocol's endpoints its filter selects, merged.
func (r *Run) observeFact(proto string, f sample.Fact, t *threshold.Threshold) (float64, bool) {
	eps, ok := r.selectEndpoints(t.Filter, false)
	if !ok {
		return 0, false
	}
	if f == sample.FactReqDuration {
		return r.observeProtocolDuration(proto, eps, t)
	}
	var sum FactFigures
	seen := false
	for _, i := range eps {
		if r.Layout.Endpoints[i].Protocol != proto || r.Endpoints[i].Facts == nil {
			continue
		}
		sum.Merge(r.Endpoints[i].Facts)
		seen = true
	}
	if !seen {
		return 0, false
	}
	if f.IsTrend() {
		return trendValue(sum.Trend(f), t)
	}
	return r.counterValue(sum.Count(f), t)
}

// observeProtocolDuration is <protocol>_req_duration: the durations of
// the protocol's endpoints among eps, merged.
func (r *Run) observeProtocolDuration(proto string, eps []int, t *threshold.Threshold) (float64, bool) {
	var h *Hist
	for _, i := range eps {
		if r.Layout.Endpoints[i].Protocol == proto {
			h = mergeHist(h, r.Endpoints[i].Duration)
		}
	}
	if h == nil {
		return 0, false
	}
	return trendValue(h, t)
}
