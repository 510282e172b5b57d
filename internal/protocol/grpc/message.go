package grpc

import (
	"net/http"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// jsonForm is how checks and extract: read a response message: protojson
// with every field present (a zero is a value a check can compare), the
// JSON names (lowerCamelCase), 64-bit integers as strings, bytes in base64.
var jsonForm = protojson.MarshalOptions{EmitUnpopulated: true}

// needsJSON reports whether the step's checks or extract: read messages,
// so that a call without them never turns a message into JSON.
func needsJSON(s *plan.Session) bool {
	for i := range s.Checks {
		if protocol.IsMessageCheck(&s.Checks[i]) {
			return true
		}
	}
	for _, ex := range s.Extract {
		if ex.From != plan.FromHeader {
			return true
		}
	}
	return false
}

// message counts one message received: its gap, the first's time and its
// checks (m is read only when they need its JSON form). It reports whether
// max_messages ends the call.
func (s *session) message(now time.Time, m *dynamicpb.Message) bool {
	st := s.st.s
	f := &s.facts
	if f.MsgsReceived == 0 {
		f.FirstMsg = now.Sub(s.intended)
	} else {
		f.Gap(now.Sub(s.lastMsg))
	}
	f.MsgsReceived++
	s.lastMsg = now
	if s.st.needJSON {
		var err error
		if s.last, err = jsonForm.MarshalAppend(s.last[:0], m); err != nil {
			s.last = s.last[:0] // a message protojson cannot write: its checks fail
		}
		msg := protocol.NewMessage(s.last)
		for i := range st.Checks {
			if c := &st.Checks[i]; protocol.IsMessageCheck(c) {
				s.vu.Check(c.ID, now, msg.Matches(c))
			}
		}
	}
	return st.MaxMessages > 0 && f.MsgsReceived >= int64(st.MaxMessages)
}

// needsHeader reports whether the step's checks or extract: read the
// response metadata.
func needsHeader(s *plan.Session) bool {
	for i := range s.Checks {
		if s.Checks[i].From == plan.FromHeader {
			return true
		}
	}
	for _, ex := range s.Extract {
		if ex.From == plan.FromHeader {
			return true
		}
	}
	return false
}

// checkHead judges the status checks on the call's gRPC status, and the
// header checks on its response metadata (headers, then trailers).
func (s *session) checkHead(stream grpc.ClientStream, err error) {
	st := s.st.s
	if len(st.Checks) == 0 && len(st.Extract) == 0 {
		return
	}
	h := http.Header{}
	if stream != nil { // nil: the call did not start
		if md, herr := stream.Header(); herr == nil {
			addMetadata(h, md)
		}
		addMetadata(h, stream.Trailer())
	}
	s.judgeHead(h, err)
}

// judgeHead judges the status and header checks on the call's status and
// its response metadata h (nil: none, or none read), kept for extract:.
func (s *session) judgeHead(h http.Header, err error) {
	st := s.st.s
	if len(st.Checks) == 0 && len(st.Extract) == 0 {
		return
	}
	s.header = h
	code := int(callCode(err))
	now := time.Now()
	for i := range st.Checks {
		if c := &st.Checks[i]; !protocol.IsMessageCheck(c) {
			s.vu.Check(c.ID, now, protocol.HeadMatches(c, code, h))
		}
	}
}

// extract sets the step's variables from the last message received and
// the response metadata, as a request's extract: does; a miss without a
// default fails its check (protocol.SetExtracted).
func (s *session) extract(end time.Time) {
	if len(s.st.s.Extract) == 0 {
		return
	}
	last := protocol.NewMessage(s.last) // parsed once for every json extraction
	for i := range s.st.s.Extract {
		ex := &s.st.s.Extract[i]
		val, ok := s.extracted(ex, &last)
		protocol.SetExtracted(s.vu, ex, val, ok, end)
	}
}

// extracted returns what one extraction finds, and whether it found it.
func (s *session) extracted(ex *plan.Extract, last *protocol.Message) (string, bool) {
	if ex.From != plan.FromHeader {
		if s.facts.MsgsReceived == 0 {
			return "", false
		}
		return last.Extracted(ex)
	}
	for _, v := range s.header.Values(ex.Header) {
		if ex.Regex == nil {
			return v, true
		}
		if m, ok := protocol.Submatch(ex, []byte(v)); ok {
			return m, true
		}
	}
	return "", false
}

// addMetadata adds gRPC metadata to h, as header checks read headers.
func addMetadata(h http.Header, md metadata.MD) {
	for k, vs := range md {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
}
