package sample

import (
	"encoding/hex"
	"errors"
)

// TraceID is the W3C trace id a request was sent with; all zeros when it
// carried none the engine could read.
type TraceID [16]byte

// IsZero reports whether the id is unset (W3C forbids an all-zero id).
func (t TraceID) IsZero() bool { return t == TraceID{} }

// String returns the id as 32 lower-case hex digits, as trace UIs take it.
func (t TraceID) String() string { return hex.EncodeToString(t[:]) }

// MarshalText writes the id as hex, as trace UIs and OTLP/JSON do.
func (t TraceID) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads an id written by MarshalText.
func (t *TraceID) UnmarshalText(b []byte) error {
	if len(b) != 2*len(t) {
		return errors.New("a trace id is 32 hex digits")
	}
	_, err := hex.Decode(t[:], b)
	return err
}
