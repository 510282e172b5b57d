// Package h2 is a lean HTTP/2 client for the engine's hot path, the
// HTTP/2 sibling of package h1: each VU owns a Client with its own
// connection per host and keeps one stream in flight on it, and the VU's
// own goroutine writes the request and reads the frames of its answer.
// There is no read-loop goroutine and no goroutine per request, which is
// what net/http's HTTP/2 transport spends most of its time on (the
// scheduler, its read loop, a goroutine's stack per request).
//
// https URLs negotiate h2 with ALPN (offering h2 and http/1.1: a server
// that picks http/1.1 gets ErrNoHTTP2 before anything is written, and the
// caller sends the request another way); http URLs speak h2c with prior
// knowledge. The first request on a connection goes out in the same write
// as the connection preface and the client's SETTINGS; each request is
// one write of its HEADERS (and CONTINUATION) and DATA frames, as far as
// the peer's flow-control windows allow, then frames are read until the
// stream ends. The socket is read and written with raw system calls
// (h1.RawIO), and when nothing the socket carried waits above it the
// request is written inside the wait for its answer (conn.send), so the
// read finds the answer, not an empty socket. On the way PING is
// answered, SETTINGS applied and acknowledged, WINDOW_UPDATE honoured, and
// WINDOW_UPDATE sent for what was read (the stream's and the connection's
// windows are large, so a small response needs none).
//
// Framing is golang.org/x/net/http2's Framer and HPACK its hpack package:
// a response's header list is bounded (maxHeaderList, as h1 bounds a
// head); past it, and after any CONTINUATION once past it, the read fails,
// so memory is bounded whatever the server sends, and time by the
// request's deadline.
//
// Retries, as net/http's: a request whose stream the server did not
// process (GOAWAY with a last stream id below it, or RST_STREAM with
// REFUSED_STREAM) goes out once more on a new connection; every other
// failure is the request's. Requests and responses are h1's types, with
// the same timing, byte counts (what the socket carried, TLS included)
// and errors (h1.ErrAborted, h1.HandshakeError, h1.ErrMalformed, network
// errors), so the engine reads both clients alike.
//
// Ownership: a Client is used by one goroutine; only Abort may be called
// from another. Slices in a Response point into the Client's buffers and
// are valid until its next Do.
package h2
