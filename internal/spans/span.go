package spans

import (
	"encoding/hex"
	"errors"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// SpanID is a span's 8-byte id.
type SpanID [8]byte

// Kind is a span's OTLP kind, as far as attribution needs it.
type Kind uint8

// The span kinds.
const (
	KindOther  Kind = iota // internal, producer, consumer or unspecified
	KindServer             // the service handling a request
	KindClient             // an outgoing call
)

// Span is one span a target exported, reduced to what attribution reads.
type Span struct {
	Trace     sample.TraceID
	ID        SpanID
	Parent    SpanID // zero for a root span
	Service   string // the resource's service.name
	Name      string
	Kind      Kind
	Start     time.Time
	End       time.Time
	DBSystem  string // db.system (or db.system.name); "" when not a database call
	Statement string // db.statement / db.query.text; "" when not recorded
	Host      string // the peer of an outgoing HTTP call: server.address, net.peer.name or the host of http.url / url.full, as host:port with a port not the scheme's default
}

// Duration is the span's length; a span that ends before it starts has none.
func (s *Span) Duration() time.Duration { return max(s.End.Sub(s.Start), 0) }

// cacheSystems are the db.system values that are caches rather than databases.
// "in-process" is what the demo shop's in-memory cache reports.
var cacheSystems = map[string]bool{"redis": true, "memcached": true, "valkey": true, "hazelcast": true, "ignite": true, "in-process": true}

// IsCache reports whether a db.system value names a cache.
func IsCache(system string) bool { return cacheSystems[system] }

// MarshalText writes the id as hex.
func (s SpanID) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(s[:])), nil }

// UnmarshalText reads an id written by MarshalText.
func (s *SpanID) UnmarshalText(b []byte) error {
	if len(b) != 2*len(s) {
		return errors.New("a span id is 16 hex digits")
	}
	_, err := hex.Decode(s[:], b)
	return err
}
