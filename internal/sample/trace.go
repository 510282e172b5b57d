package sample

import "encoding/hex"

// TraceID is the W3C trace id a request was sent with; all zeros when it
// carried none the engine could read.
type TraceID [16]byte

// IsZero reports whether the id is unset (W3C forbids an all-zero id).
func (t TraceID) IsZero() bool { return t == TraceID{} }

// String returns the id as 32 lower-case hex digits, as trace UIs take it.
func (t TraceID) String() string { return hex.EncodeToString(t[:]) }
