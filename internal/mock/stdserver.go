package mock

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// ServeHTTP answers a request: HTTP/1.1 and h2c on the plain listener,
// HTTP/1.1 and HTTP/2 over TLS.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.isAdmin(r.URL.Path) {
		h.admin(w, r)
		return
	}
	x := &stdExchange{w: w, r: r}
	h.handle(x)
	x.drain()
}

// stdExchange is an exchange over net/http.
type stdExchange struct {
	w    http.ResponseWriter
	r    *http.Request
	read bool // the body was read (up to a limit)
}

func (x *stdExchange) method() string   { return x.r.Method }
func (x *stdExchange) path() string     { return x.r.URL.Path }
func (x *stdExchange) rawQuery() string { return x.r.URL.RawQuery }
func (x *stdExchange) host() string     { return x.r.Host }

func (x *stdExchange) header(name string) (string, bool) {
	vs := x.r.Header[name]
	if len(vs) == 0 {
		return "", false
	}
	return vs[0], true
}

func (x *stdExchange) cookie(name string) (string, bool) {
	c, err := x.r.Cookie(name)
	if err != nil {
		return "", false
	}
	return c.Value, true
}

func (x *stdExchange) contentType() string { return x.r.Header.Get("Content-Type") }

func (x *stdExchange) readBody(limit int) []byte {
	x.read = true
	b, _ := io.ReadAll(io.LimitReader(x.r.Body, int64(limit)))
	return b
}

// drain reads what is left of the request body, as an upload's receiver
// would, so the client's sending is measured and the connection stays open.
func (x *stdExchange) drain() {
	io.Copy(io.Discard, io.LimitReader(x.r.Body, maxDrain))
}

func (x *stdExchange) done() <-chan struct{} { return x.r.Context().Done() }

func (x *stdExchange) setHeader(name string, values []string) { x.w.Header()[name] = values }

func (x *stdExchange) answer(status int, body []byte, _ bool) {
	if bodyAllowed(status) {
		x.w.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	x.w.WriteHeader(status)
	if bodyAllowed(status) && len(body) > 0 {
		x.w.Write(body)
	}
}

// answerPaced writes body at bps bytes per second, in chunks of about
// 20 ms, each flushed to the client.
func (x *stdExchange) answerPaced(status int, body []byte, bps float64) {
	if !bodyAllowed(status) {
		x.answer(status, nil, false)
		return
	}
	x.w.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	x.w.WriteHeader(status)
	rc := http.NewResponseController(x.w)
	pace(body, bps, x.r.Context().Done(), func(p []byte) error {
		if _, err := x.w.Write(p); err != nil {
			return err
		}
		return rc.Flush()
	})
}

// reset resets the connection: on HTTP/1 the TCP connection closes with an
// RST (SO_LINGER 0); on HTTP/2 the stream is reset, as the connection
// carries other requests.
func (x *stdExchange) reset() {
	hj, ok := x.w.(http.Hijacker)
	if x.r.ProtoMajor >= 2 || !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	resetNetConn(conn)
}

// resetNetConn closes conn with an RST.
func resetNetConn(conn net.Conn) {
	for {
		switch c := conn.(type) {
		case *tls.Conn:
			conn = c.NetConn() // closing the TLS layer would send close_notify first
			continue
		case *net.TCPConn:
			c.SetLinger(0)
		}
		break
	}
	conn.Close()
}

// pace calls write with chunks of body so that it goes out at bps bytes per
// second, as over a link that slow: each chunk of about 20 ms is written
// when its last byte would have crossed the link, until done closes.
func pace(body []byte, bps float64, done <-chan struct{}, write func([]byte) error) {
	chunk := max(1, int(bps/50))
	start := time.Now()
	for off := 0; off < len(body); {
		n := min(chunk, len(body)-off)
		due := start.Add(time.Duration(float64(off+n) / bps * float64(time.Second)))
		t := time.NewTimer(time.Until(due))
		select {
		case <-t.C:
		case <-done:
			t.Stop()
			return
		}
		if write(body[off:off+n]) != nil {
			return
		}
		off += n
	}
}

// maxDrain bounds how much of a request body is read and discarded.
const maxDrain = 1 << 30
