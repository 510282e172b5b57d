package sample

import (
	"strings"
	"time"
)

// MaxGaps is the most gaps between messages one sample carries: a
// protocol that saw more keeps the first MaxGaps, so a sample's size stays
// bounded whatever a peer sends.
const MaxGaps = 4096

// Facts are what a session protocol (Server-Sent Events, WebSocket, gRPC
// streams) measured in one sample beyond a request's times and bytes.
// They are the same few facts for every protocol, so that the per-second
// windows, thresholds and reports read them without knowing which protocol
// made them; EndpointInfo.Protocol names the metrics they appear under.
type Facts struct {
	MsgsSent     int64         // messages the session sent
	MsgsReceived int64         // messages (events) it received
	FirstMsg     time.Duration // from the session's start to its first message received; 0 when none came
	Session      time.Duration // how long the session was open, reconnections included
	Reconnects   int64         // times it reconnected (SSE's Last-Event-ID)
	Code         int           // the protocol's own status (WebSocket close code, gRPC status); 0: none
	// Reply is the time from a message sent to the reply that answered it
	// (a WebSocket until: match); 0 when none was awaited or came.
	Reply time.Duration
	// Gaps are the times between consecutive messages received, at most
	// MaxGaps; the protocol's buffer, read only during the Sink call.
	Gaps []time.Duration
}

// Reset empties f, keeping the gaps' buffer.
func (f *Facts) Reset() {
	*f = Facts{Gaps: f.Gaps[:0]}
}

// Gap records a gap between two messages, unless MaxGaps are held.
func (f *Facts) Gap(d time.Duration) {
	if len(f.Gaps) < MaxGaps {
		f.Gaps = append(f.Gaps, d)
	}
}

// Fact names one of the facts as a metric suffix: a protocol's metric is
// its name, an underscore, then the suffix (sse_msgs_received), so that a
// new protocol's metrics exist without a line in thresholds or reports.
type Fact string

// The facts every session protocol reports, as metric suffixes.
const (
	FactSessions     Fact = "sessions"          // counter: sessions ended
	FactMsgsSent     Fact = "msgs_sent"         // counter
	FactMsgsReceived Fact = "msgs_received"     // counter
	FactReconnects   Fact = "reconnects"        // counter
	FactFirstMsg     Fact = "time_to_first_msg" // trend: from the intended start to the first message
	FactSession      Fact = "session_duration"  // trend
	FactGap          Fact = "msg_gap"           // trend: between consecutive messages received
	FactReply        Fact = "reply_time"        // trend: from a message sent to the reply that answered it
	// FactReqDuration is the sessions' own durations (grpc_req_duration, as
	// k6 names gRPC's): the endpoint's durations, so not among AllFacts.
	FactReqDuration Fact = "req_duration"
)

// AllFacts returns every fact, the counters first, then the trends.
func AllFacts() []Fact {
	return []Fact{FactSessions, FactMsgsSent, FactMsgsReceived, FactReconnects, FactFirstMsg, FactSession, FactGap, FactReply}
}

// IsTrend reports whether a fact is a distribution of times (else a counter).
func (f Fact) IsTrend() bool {
	return f == FactFirstMsg || f == FactSession || f == FactGap || f == FactReply || f == FactReqDuration
}

// FactMetric splits a session protocol's metric name into the protocol
// and the fact: "sse_msgs_received" is ("sse", FactMsgsReceived). HTTP's
// metrics (http_reqs …) and unknown suffixes are not facts.
func FactMetric(metric string) (protocol string, f Fact, ok bool) {
	protocol, suffix, found := strings.Cut(metric, "_")
	if !found || protocol == "" || protocol == "http" || !isWord(protocol) {
		return "", "", false
	}
	if suffix == string(FactReqDuration) {
		return protocol, FactReqDuration, true
	}
	for _, x := range AllFacts() {
		if string(x) == suffix {
			return protocol, x, true
		}
	}
	return "", "", false
}

// isWord reports whether s is lower-case letters and digits, as protocol names are.
func isWord(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
