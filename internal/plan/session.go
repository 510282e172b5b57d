package plan

import (
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// DefaultMaxMessage is the largest message a session step keeps unless
// its max_event_size says otherwise: a peer's stream never grows a VU's
// memory beyond it.
const DefaultMaxMessage = 64 << 10

// Session is a session protocol's step (sse:): a connection held open while
// messages flow. Protocol names the package that runs it
// (internal/protocol/<name>, found through the engine's registry) and
// prefixes its metrics (sse_msgs_received). The fields are those every
// such protocol shares; one a protocol has no use for stays zero.
type Session struct {
	Protocol string // "sse"
	Endpoint int32  // id in Layout.Endpoints
	URL      *tmpl.Template
	Headers  []Header // default headers merged with the step's own
	// Timeout bounds the wait for the response head, and once open the
	// wait for each next message: a stream that stalls fails as a timeout.
	Timeout time.Duration
	// Duration is how long the session stays open; 0: until MaxMessages
	// arrived or the peer closed for the last time.
	Duration    time.Duration
	MaxMessages int   // stop after this many messages received; 0: no limit
	MaxMessage  int64 // the largest message (and line) kept; a longer one fails the session
	// Reconnects is how many times the session reconnects after the peer
	// closes (SSE: sending Last-Event-ID); 0: none.
	Reconnects int
	// Checks: status and header checks judge each response head; body_*
	// and json checks each message's data, once per message.
	Checks []Check
	// Send are the messages the session sends (WebSocket): once when it
	// opens, in order, and again every Every for those with one.
	Send []Send
	// Until, when set, ends the session at the first message it matches
	// (body_*/json): the time from the last message sent to it is the
	// session's reply time. None matching by the end fails the session.
	Until *Check
	// Replies are messages sent in answer to messages received
	// (WebSocket): each message is offered to them in order, and the
	// first whose On it matches is answered.
	Replies      []Reply
	Subprotocols []string // WebSocket subprotocols offered, in order of preference
	// Extract sets VU variables from the last message received (json,
	// regex) or the response head (header), as a request step's extract:.
	Extract []Extract
	GRPC    *GRPC // a grpc: step's own settings; nil for other protocols
}

// GRPC is what a grpc: step adds to a Session: the method to call, where
// its descriptors come from, and the request messages. Its metadata are
// the Session's Headers, its deadline the Session's Timeout.
type GRPC struct {
	Target    string   // host:port, dialled as written
	TLS       bool     // grpcs://: the connection is TLS
	Method    string   // package.Service/Method
	Protos    []string // .proto files, relative to ImportDir (or absolute); none: Protoset, else the server's reflection
	ImportDir []string // where the .proto files and their imports are found, absolute
	Protoset  string   // a FileDescriptorSet file (protoc --descriptor_set_out --include_imports), absolute
	// Messages are the request messages, each a template of its JSON
	// form, sent in order (one for unary and server-streaming methods).
	Messages []*tmpl.Template
	// ExpectStatus lists the status codes that are not failures (e.g. NOT_FOUND
	// for a lookup of a missing key), as expect_status does for HTTP; nil: OK alone.
	ExpectStatus []int
	// At says where the step's method: and proto: (or protoset:) are written, for errors
	// found when the descriptors are read (before the run starts).
	MethodAt, ProtoAt yamldoc.Error
}

// Send is one message a session sends.
type Send struct {
	// Text is the message's payload: a text message's text, or a binary
	// message's bytes written in Encoding.
	Text     *tmpl.Template
	Binary   bool          // a binary message rather than a text one
	Encoding Encoding      // how a binary payload is written; RawBytes when it was decoded while parsing
	Every    time.Duration // repeat it this often while the session lasts; 0: once
}

// Encoding is how a binary message's payload is written in the test file.
type Encoding uint8

// The encodings of binary payloads.
const (
	RawBytes Encoding = iota // the bytes themselves: a payload with no template, decoded while parsing
	Hex                      // hexadecimal, two digits a byte
	Base64                   // standard base64, padded
)

// Reply is a message a session sends in answer to a message it received.
type Reply struct {
	On      Check     // a body_*, json or size check the received message must match
	Extract []Extract // VU variables set from the matching message before Send renders
	Send    Send      // the reply; its Every is 0
}

// Longest returns the longest one run of the step can take: its duration,
// or every message arriving just within the timeout on every connection;
// a gRPC call's deadline.
func (s *Session) Longest() time.Duration {
	if s.GRPC != nil {
		return s.Timeout // a gRPC call's deadline bounds it whole, however many messages
	}
	if s.Duration > 0 {
		return cappedAdd(s.Duration, s.Timeout)
	}
	perConn := cappedMul(s.Timeout, s.MaxMessages+1)
	return cappedMul(perConn, s.Reconnects+1)
}
