package mock

import (
	"bytes"
	"net"
	"sync"
	"time"
)

// h2Preface is what an HTTP/2 client with prior knowledge (h2c) sends first.
var h2Preface = []byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")

// sniffTimeout bounds how long a new connection may take to send its first bytes.
const sniffTimeout = 30 * time.Second

// sniff reads the first bytes of c, as few as tell an HTTP/2 preface from an
// HTTP/1 request line, and returns c with those bytes to be read again.
func sniff(c net.Conn) (net.Conn, bool, error) {
	c.SetReadDeadline(time.Now().Add(sniffTimeout))
	buf := make([]byte, len(h2Preface))
	n := 0
	for n < len(h2Preface) {
		m, err := c.Read(buf[n:])
		n += m
		if !bytes.HasPrefix(h2Preface, buf[:n]) {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	c.SetReadDeadline(time.Time{})
	return &sniffedConn{Conn: c, head: buf[:n]}, n == len(h2Preface) && bytes.Equal(buf, h2Preface), nil
}

// sniffedConn is a connection whose first bytes were read already.
type sniffedConn struct {
	net.Conn
	head []byte
}

func (c *sniffedConn) Read(p []byte) (int, error) {
	if len(c.head) > 0 {
		n := copy(p, c.head)
		c.head = c.head[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// chanListener hands sniffed connections to net/http's server.
type chanListener struct {
	addr  net.Addr
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

func newChanListener(addr net.Addr) *chanListener {
	return &chanListener{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

// push hands c to the server, or closes it when the listener is closed.
func (l *chanListener) push(c net.Conn) {
	select {
	case l.conns <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return l.addr }
