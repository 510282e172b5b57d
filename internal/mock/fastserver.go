package mock

import (
	"bufio"
	"io"
	"net"
	"time"
	"unsafe"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// newFastServer returns the HTTP/1.1 server of the plain listener. It is
// valyala/fasthttp rather than net/http because net/http spends about three
// times nginx's CPU per request, and a mock must never be the bottleneck of
// the test it serves (bench/mock/RESULTS.md).
func (h *handler) newFastServer() *fasthttp.Server {
	admin := fasthttpadaptor.NewFastHTTPHandler(adminHandler{h})
	return &fasthttp.Server{
		Handler: func(c *fasthttp.RequestCtx) {
			if h.isAdmin(b2s(c.Path())) {
				admin(c)
				return
			}
			x := &fastExchange{c: c}
			h.handle(x)
			x.drain()
		},
		Name:                         "",
		NoDefaultServerHeader:        true,
		NoDefaultContentType:         true,
		StreamRequestBody:            true,
		MaxRequestBodySize:           maxDrain,
		ReadTimeout:                  0,
		IdleTimeout:                  5 * time.Minute,
		ReadBufferSize:               16 << 10,
		DisablePreParseMultipartForm: true,
		Logger:                       quietLogger{},
	}
}

// b2s views b as a string without copying; the string is used only while
// the request is served, when fasthttp keeps b unchanged.
func b2s(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}

// fastExchange is an exchange over fasthttp.
type fastExchange struct {
	c    *fasthttp.RequestCtx
	read bool
}

func (x *fastExchange) method() string   { return b2s(x.c.Method()) }
func (x *fastExchange) path() string     { return b2s(x.c.Path()) }
func (x *fastExchange) rawQuery() string { return b2s(x.c.URI().QueryString()) }
func (x *fastExchange) host() string     { return b2s(x.c.Host()) }

func (x *fastExchange) header(name string) (string, bool) {
	v := x.c.Request.Header.Peek(name)
	return b2s(v), v != nil
}

func (x *fastExchange) cookie(name string) (string, bool) {
	v := x.c.Request.Header.Cookie(name)
	return b2s(v), v != nil
}

func (x *fastExchange) contentType() string { return b2s(x.c.Request.Header.ContentType()) }

func (x *fastExchange) readBody(limit int) []byte {
	x.read = true
	if s := x.c.RequestBodyStream(); s != nil {
		b, _ := io.ReadAll(io.LimitReader(s, int64(limit)))
		return b
	}
	b := x.c.Request.Body()
	return b[:min(len(b), limit)]
}

// drain reads what is left of a streamed request body, so the connection
// can serve the next request.
func (x *fastExchange) drain() {
	if s := x.c.RequestBodyStream(); s != nil {
		io.Copy(io.Discard, io.LimitReader(s, maxDrain))
	}
}

func (x *fastExchange) done() <-chan struct{} { return x.c.Done() }

func (x *fastExchange) setHeader(name string, values []string) {
	if name == "Content-Type" {
		x.c.Response.Header.SetContentType(values[0])
		return
	}
	x.c.Response.Header.Set(name, values[0])
	for _, v := range values[1:] {
		x.c.Response.Header.Add(name, v)
	}
}

func (x *fastExchange) answer(status int, body []byte, shared bool) {
	x.c.SetStatusCode(status)
	switch {
	case !bodyAllowed(status):
	case shared:
		x.c.Response.SetBodyRaw(body) // read-only and alive as long as the config
	default:
		x.c.Response.SetBody(body)
	}
}

// answerPaced streams body at bps bytes per second, each chunk flushed (so
// the answer is sent chunked).
func (x *fastExchange) answerPaced(status int, body []byte, bps float64) {
	x.c.SetStatusCode(status)
	if !bodyAllowed(status) {
		return
	}
	own := append([]byte(nil), body...) // the stream is written after the handler returns
	done := x.c.Done()
	x.c.SetBodyStreamWriter(func(w *bufio.Writer) {
		pace(own, bps, done, func(p []byte) error {
			if _, err := w.Write(p); err != nil {
				return err
			}
			return w.Flush()
		})
	})
}

// reset closes the connection with an RST instead of answering.
func (x *fastExchange) reset() {
	conn := x.c.Conn()
	x.c.HijackSetNoResponse(true)
	x.c.Hijack(func(net.Conn) { resetNetConn(conn) })
}
