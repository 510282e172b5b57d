package sample

import "time"

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
