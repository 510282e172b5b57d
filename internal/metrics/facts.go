package metrics

import "github.com/loadlens/loadlens/internal/sample"

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
}

// record adds one sample's facts. Sparse histograms: sessions are few
// beside requests, and a dense one would cost ~140 KB per endpoint.
func (f *FactFigures) record(x *sample.Facts) {
	f.Sessions++
	f.MsgsSent += x.MsgsSent
	f.MsgsReceived += x.MsgsReceived
	f.Reconnects += x.Reconnects
	if f.Session == nil {
		f.FirstMsg, f.Session, f.Gap = NewHist(), NewHist(), NewHist()
	}
	f.Session.Record(x.Session)
	if x.MsgsReceived > 0 {
		f.FirstMsg.Record(x.FirstMsg)
	}
	for _, g := range x.Gaps {
		f.Gap.Record(g)
	}
}

// merge adds o to f; f never aliases o's histograms.
func (f *FactFigures) merge(o *FactFigures) {
	f.Sessions += o.Sessions
	f.MsgsSent += o.MsgsSent
	f.MsgsReceived += o.MsgsReceived
	f.Reconnects += o.Reconnects
	f.FirstMsg = mergeHist(f.FirstMsg, o.FirstMsg)
	f.Session = mergeHist(f.Session, o.Session)
	f.Gap = mergeHist(f.Gap, o.Gap)
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
	dst.merge(src)
	return dst
}

// Fact names one of a protocol's facts as a metric suffix: the metric is
// the endpoint's protocol, an underscore, then the suffix (sse_msgs_received).
type Fact string

// The facts every session protocol reports, as metric suffixes.
const (
	FactSessions     Fact = "sessions"
	FactMsgsSent     Fact = "msgs_sent"
	FactMsgsReceived Fact = "msgs_received"
	FactReconnects   Fact = "reconnects"
	FactFirstMsg     Fact = "time_to_first_msg"
	FactSession      Fact = "session_duration"
	FactGap          Fact = "msg_gap"
)

// Facts lists every fact, counts first, then the trends.
var Facts = []Fact{FactSessions, FactMsgsSent, FactMsgsReceived, FactReconnects, FactFirstMsg, FactSession, FactGap}

// IsTrend reports whether a fact is a histogram of durations (else a count).
func (f Fact) IsTrend() bool {
	return f == FactFirstMsg || f == FactSession || f == FactGap
}

// Count returns a counting fact's value.
func (f *FactFigures) Count(x Fact) int64 {
	switch x {
	case FactSessions:
		return f.Sessions
	case FactMsgsSent:
		return f.MsgsSent
	case FactMsgsReceived:
		return f.MsgsReceived
	case FactReconnects:
		return f.Reconnects
	}
	return 0
}

// Trend returns a trend fact's histogram; nil when none was recorded.
func (f *FactFigures) Trend(x Fact) *Hist {
	switch x {
	case FactFirstMsg:
		return f.FirstMsg
	case FactSession:
		return f.Session
	case FactGap:
		return f.Gap
	}
	return nil
}
