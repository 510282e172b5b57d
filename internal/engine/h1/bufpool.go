package h1

import "sync"

// bufPool holds the read buffers of idle connections. A connection needs
// its buffer only during an exchange: a closed-model VU thinking for 1 s
// between requests of 0.3 ms would hold 4 KiB for nothing, 40 MB at
// 10,000 VUs, which the GC then has to make room for while they start.
// Pooled, the buffers in use are those of the requests in flight.
var bufPool sync.Pool // of *[readBufSize]byte: a pointer, so a Put allocates nothing

// readSpace is where sendRecv reads the response's first bytes: the
// buffer's free part, or nil while cn holds none, so that the buffer is
// taken (by space) only once the response is readable. A request waiting
// for its response then holds no buffer either, and the pool holds as many
// as responses were being read at once, not as requests were in flight:
// 10,000 VUs that start together have thousands in flight while the
// generator is busy starting them.
func (cn *conn) readSpace() []byte {
	if cn.buf == nil {
		return nil
	}
	return cn.buf[cn.w:]
}

// space takes a buffer if cn has none and returns its free part.
func (cn *conn) space() []byte {
	cn.takeBuf()
	return cn.buf[cn.w:]
}

// takeBuf gives cn a read buffer if it has none.
func (cn *conn) takeBuf() {
	if cn.buf != nil {
		return
	}
	if p, _ := bufPool.Get().(*[readBufSize]byte); p != nil {
		cn.buf = p[:]
		return
	}
	cn.buf = make([]byte, readBufSize)
}

// releaseBuf returns cn's read buffer to the pool when nothing in it is
// unread; a buffer grown for a large head stays with its connection.
func (cn *conn) releaseBuf() {
	if cn.r != cn.w || len(cn.buf) != readBufSize {
		return
	}
	bufPool.Put((*[readBufSize]byte)(cn.buf))
	cn.buf, cn.r, cn.w = nil, 0, 0
}
