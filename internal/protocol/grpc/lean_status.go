package grpc

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/loadlens/loadlens/internal/engine/h2"
)

// leanResponse reads a unary call's answer as grpc-go's client does: its
// one message (prefix, bounded length, decoded), then its status from the
// trailers (or the headers of a Trailers-Only answer).
func (s *session) leanResponse() error {
	l := s.lean
	r := &l.resp
	trl, seen, only := l.c.Trailers()
	if only {
		trl = r.Header
	}
	if ct := field(r.Header, "content-type"); !grpcContentType(ct) {
		return nonGRPC(r.Status, string(ct), r.Body, !only)
	}
	body := r.Body
	if len(body) > 0 {
		msg, rest, err := s.leanMessage(body)
		if err != nil {
			return err
		}
		if len(rest) > 0 {
			return status.Error(codes.Internal, "cardinality violation: expected <EOF> for non server-streaming RPCs, but received another message")
		}
		if err := streamStatus(trl, seen || only); err != nil {
			return err
		}
		return s.leanMessageIn(msg)
	}
	if err := streamStatus(trl, seen || only); err != nil {
		return err
	}
	return status.Error(codes.Internal, "cardinality violation: received no response message from non-server-streaming RPC")
}

// leanMessage splits the first message off a response's DATA.
func (s *session) leanMessage(body []byte) (msg, rest []byte, err error) {
	if len(body) < prefixLen {
		return nil, nil, status.Error(codes.Internal, "unexpected EOF")
	}
	n := int64(body[1])<<24 | int64(body[2])<<16 | int64(body[3])<<8 | int64(body[4])
	if max := int64(s.st.s.MaxMessage); n > max {
		return nil, nil, status.Errorf(codes.ResourceExhausted, "grpc: received message larger than max (%d vs. %d)", n, max)
	}
	if body[0] == 1 && len(field(s.lean.resp.Header, "grpc-encoding")) == 0 {
		return nil, nil, status.Error(codes.Internal, "grpc: compressed flag set with identity or empty encoding")
	}
	if body[0] > 1 {
		return nil, nil, status.Errorf(codes.Internal, "grpc: received unexpected payload format %d", body[0])
	}
	if body[0] == 1 {
		return nil, nil, status.Error(codes.Unimplemented, "grpc: a compressed message, which the lean client does not decompress")
	}
	if int64(len(body)-prefixLen) < n {
		return nil, nil, status.Error(codes.Internal, "unexpected EOF")
	}
	return body[prefixLen : prefixLen+n], body[prefixLen+n:], nil
}

// leanMessageIn counts the message received: decoded for the checks and
// extract: that read it, else checked as protobuf's wire format (a
// message that does not parse fails the call, as grpc-go's decoding does).
func (s *session) leanMessageIn(b []byte) error {
	var m *dynamicpb.Message
	if s.st.needJSON {
		m = dynamicpb.NewMessage(s.st.method.Output())
		if err := proto.Unmarshal(b, m); err != nil {
			return status.Errorf(codes.Internal, "grpc: failed to unmarshal the received message: %v", err)
		}
	} else if err := wellFormed(b); err != nil {
		return status.Errorf(codes.Internal, "grpc: failed to unmarshal the received message: %v", err)
	}
	s.message(time.Now(), m)
	return nil
}

// wellFormed checks b's fields against protobuf's wire format.
func wellFormed(b []byte) error {
	for len(b) > 0 {
		_, _, n := protowire.ConsumeField(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
	}
	return nil
}

// streamStatus is the status a call's trailer fields give, nil for OK:
// none at all is INTERNAL, a missing grpc-status UNKNOWN, as in grpc-go.
func streamStatus(trl []byte, seen bool) error {
	if !seen {
		return status.Error(codes.Internal, "server closed the stream without sending trailers")
	}
	code, msg := codes.Unknown, ""
	for line := range bytes.Lines(trl) {
		name, value, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(": "))
		switch string(name) {
		case "grpc-status":
			c, err := strconv.ParseInt(string(value), 10, 32)
			if err != nil {
				return status.Errorf(codes.Unknown, "transport: malformed grpc-status: %v", err)
			}
			code = codes.Code(uint32(c))
		case "grpc-message":
			msg = decodeMessage(string(value))
		}
	}
	if code == codes.OK {
		return nil
	}
	return status.Error(code, msg)
}

// decodeMessage undoes grpc-message's percent-encoding; a bad escape is
// kept as it is, as grpc-go keeps it.
func decodeMessage(s string) string {
	if !bytes.ContainsRune([]byte(s), '%') {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// field returns the first value of a header field in "name: value\r\n" lines.
func field(lines []byte, name string) []byte {
	for line := range bytes.Lines(lines) {
		if n, v, ok := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(": ")); ok && string(n) == name {
			return v
		}
	}
	return nil
}

// grpcContentType reports application/grpc, or one of its subtypes.
func grpcContentType(ct []byte) bool {
	const base = "application/grpc"
	if len(ct) < len(base) || string(ct[:len(base)]) != base {
		return false
	}
	return len(ct) == len(base) || ct[len(base)] == '+' || ct[len(base)] == ';'
}

// nonGRPC is grpc-go's status for an answer that is not gRPC's: its HTTP
// status's code (404 UNIMPLEMENTED, 503 UNAVAILABLE …), else UNKNOWN.
// grpc-go's message ends with the body's start when there was a body.
func nonGRPC(code int, ct string, body []byte, hasBody bool) error {
	c, ok := httpCodes[code]
	if !ok {
		c = codes.Unknown
	}
	msg := fmt.Sprintf("unexpected HTTP status code received from server: %d (%s)", code, http.StatusText(code))
	if ct == "" {
		msg += "; malformed header: missing HTTP content-type"
	} else {
		msg += fmt.Sprintf("; transport: received unexpected content-type %q", ct)
	}
	if hasBody {
		msg += fmt.Sprintf("\ndata: %q", body[:min(len(body), 1024)])
	}
	return status.Error(c, msg)
}

// httpCodes is grpc-go's HTTPStatusConvTab.
var httpCodes = map[int]codes.Code{
	http.StatusBadRequest: codes.Internal, http.StatusUnauthorized: codes.Unauthenticated,
	http.StatusForbidden: codes.PermissionDenied, http.StatusNotFound: codes.Unimplemented,
	http.StatusTooManyRequests: codes.Unavailable, http.StatusBadGateway: codes.Unavailable,
	http.StatusServiceUnavailable: codes.Unavailable, http.StatusGatewayTimeout: codes.Unavailable,
}

// streamCode is grpc-go's code for a RST_STREAM's error code.
func streamCode(se *h2.StreamError) codes.Code {
	switch se.Code {
	case http2.ErrCodeRefusedStream:
		return codes.Unavailable
	case http2.ErrCodeCancel:
		return codes.Canceled
	case http2.ErrCodeEnhanceYourCalm:
		return codes.ResourceExhausted
	case http2.ErrCodeInadequateSecurity:
		return codes.PermissionDenied
	}
	return codes.Internal
}

// leanHead judges the call's status and header checks as checkHead does,
// on the metadata grpc-go would give: the response's header fields and
// trailers but gRPC's own, binary values decoded.
func (s *session) leanHead(err error) {
	if len(s.st.s.Checks) == 0 && len(s.st.s.Extract) == 0 {
		return
	}
	var h http.Header // nil when no check or extract: reads it
	if r := &s.lean.resp; r.Status != 0 && s.st.needHeader {
		h = http.Header{}
		trl, _, _ := s.lean.c.Trailers()
		addLines(h, r.Header)
		addLines(h, trl)
	}
	s.judgeHead(h, err)
}

// addLines adds "name: value\r\n" lines to h as grpc-go's metadata.
func addLines(h http.Header, lines []byte) {
	for line := range bytes.Lines(lines) {
		n, v, ok := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(": "))
		name := string(n)
		if !ok || reservedField(name) {
			continue
		}
		val := string(v)
		if len(name) > 4 && name[len(name)-4:] == "-bin" {
			d, err := decodeBin(val)
			if err != nil {
				continue
			}
			val = d
		}
		h.Add(name, val)
	}
}

// reservedField reports the fields grpc-go keeps out of metadata.
func reservedField(name string) bool {
	switch name {
	case "user-agent", "grpc-message-type", "grpc-encoding", "grpc-message", "grpc-status", "grpc-timeout", "te", "grpc-status-details-bin":
		return name != "user-agent"
	}
	return false
}

// decodeBin decodes a binary field's base64, padded or not, as grpc-go does.
func decodeBin(v string) (string, error) {
	if len(v)%4 == 0 {
		b, err := base64.StdEncoding.DecodeString(v)
		return string(b), err
	}
	b, err := base64.RawStdEncoding.DecodeString(v)
	return string(b), err
}
