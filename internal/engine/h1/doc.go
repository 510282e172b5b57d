// Package h1 is a lean HTTP/1.1 client for the engine's hot path. Each VU
// owns a Client with its own kept-alive connection; requests are written
// from reused buffers (a body over InlineBodyMax from the request's own, so
// the buffer stays small) and responses parsed in place, so a request costs
// no allocation and no goroutine besides the VU's own. https URLs are
// crypto/tls over the same connection (ALPN http/1.1 only, a session cache
// per Client; see wire.go for how the idle check sees TLS records, and
// docs/http-client.md); crypto/tls allocates 16 bytes per record read
// that needs the socket, nothing else does. HTTP/2 is package h2's.
//
// Ownership: a Client is used by one goroutine; only Abort may be called
// from another. Slices in a Response point into the Client's buffers and
// are valid until its next Do.
//
// Strictness: a response is read as net/http's Transport reads it, and what
// net/http rejects is rejected here with an error wrapping ErrMalformed that
// says what was wrong (a differential fuzz test holds the two together):
//   - the status line and header fields follow net/textproto: lines may end
//     in a bare LF, folded lines are joined with a space, a field name is
//     token characters (a space before the colon makes another field, as in
//     textproto), a value has no control character but tab;
//   - Content-Length must be decimal digits up to 2^63-1, even where no body
//     follows; repeated fields must agree (the same value repeated is one);
//   - on HTTP/1.1, Transfer-Encoding must be exactly one "chunked", which
//     wins over a Content-Length; HTTP/1.0 ignores Transfer-Encoding;
//   - chunk-size lines end in CRLF and fit in 4 KiB, sizes are at most 16
//     hex digits, chunk data ends in CRLF, trailer fields are validated.
//
// Interim responses: 100 Continue, 102 Processing, 103 Early Hints and
// other 1xx responses before the final one are read, counted in
// Response.Received and skipped, as net/http's Transport skips them; their
// header fields are not the final response's. At most 10 are accepted
// (maxInterim), so a server streaming them cannot hold a VU.
// 101 Switching Protocols is final, as in net/http: the client never asks
// for an upgrade, so it returns the 101 with no body and closes the
// connection, which no longer speaks HTTP/1.1.
//
// Reuse: a connection carries the next request only if the last response
// allowed it (no "Connection: close", HTTP/1.0 keep-alive, a delimited
// body) and nothing arrived that no request asked for. Bytes left in the
// buffer after a response (a body longer than its Content-Length, a second
// response) close it at once; before reusing an idle connection, a
// non-blocking MSG_PEEK looks for bytes or a close that arrived while it
// was idle (net/http's Transport watches idle connections the same way)
// and, if it finds any, the request goes out on a new connection. An
// idempotent request sent within freshIdle of the connection's last
// response skips that peek (see Client.Do).
//
// Deliberate differences from net/http, each to keep a fault from counting
// as a success or to bound memory: a status code must be three digits from
// 100 (net/http takes "+20" and "099"); a response head is limited to
// 64 KiB (net/http: 10 MB); at most 10 interim responses (net/http bounds
// their bytes instead); Response.Header keeps the fields as received,
// where net/http drops Transfer-Encoding, a chunked response's
// Content-Length and "Connection: close", and adds Cache-Control for
// "Pragma: no-cache".
package h1
