package h1

import (
	"io"
	"net"
	"syscall"
)

// conn is one kept-alive connection and its read buffer.
type conn struct {
	nc         net.Conn
	addr       string
	buf        []byte // read buffer; unread bytes are buf[r:w]
	r, w       int
	used       int  // completed exchanges
	closeAfter bool // the last response leaves the connection unusable
	idle       idleCheck
}

// readBufSize is the read buffer's size, and the most a chunk-size line or a
// chunked trailer may take (net/http's bufio size, which bounds the same).
const readBufSize = 4 << 10

func newConn(nc net.Conn, addr string) *conn {
	cn := &conn{nc: nc, addr: addr}
	if sc, ok := nc.(syscall.Conn); ok {
		cn.idle.init(sc)
	}
	return cn
}

// fill reads more bytes into the buffer, compacting or growing it first
// when full; limit bounds the growth. It returns io.EOF only when the peer
// closed with nothing more to read.
func (cn *conn) fill(limit int) error {
	if cn.buf == nil {
		cn.buf = make([]byte, readBufSize) // allocated at first use, so idle VUs stay small
	}
	if cn.w == len(cn.buf) {
		if cn.r > 0 {
			cn.w = copy(cn.buf, cn.buf[cn.r:cn.w])
			cn.r = 0
		} else if len(cn.buf) < limit {
			nb := make([]byte, min(2*len(cn.buf), limit))
			cn.w = copy(nb, cn.buf[cn.r:cn.w])
			cn.r, cn.buf = 0, nb
		} else {
			return ErrHeaderTooBig
		}
	}
	n, err := cn.nc.Read(cn.buf[cn.w:])
	cn.w += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// buffered returns the unread bytes.
func (cn *conn) buffered() []byte { return cn.buf[cn.r:cn.w] }

// consume drops n unread bytes, counting them as received.
func (cn *conn) consume(n int, resp *Response) {
	cn.r += n
	resp.Received += int64(n)
	if cn.r == cn.w {
		cn.r, cn.w = 0, 0 // an empty buffer restarts at its beginning, so reads stay large
	}
}

// reusable reports whether the connection may carry another request: the
// last response asked for nothing else, and no byte is waiting that no
// request asked for (it would be read as the next response, as net/http's
// Transport refuses to do).
func (cn *conn) reusable() bool {
	return !cn.closeAfter && cn.r == cn.w
}

// need fills the buffer until it holds n unread bytes (n ≤ readBufSize).
func (cn *conn) need(n int) error {
	for cn.w-cn.r < n {
		if err := cn.fill(readBufSize); err != nil {
			return unexpected(err)
		}
	}
	return nil
}
