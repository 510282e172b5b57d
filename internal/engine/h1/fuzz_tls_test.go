//go:build unix

package h1

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// tlsJob is one reply for tlsParser's server to send, in records of at
// most split bytes (0: as one write), followed by a close_notify.
type tlsJob struct {
	reply   []byte
	split   int
	written chan int64 // the bytes the server's socket wrote, once it closed
}

// tlsParser reads replies the way the lean client reads them over https:
// a loopback TLS server sends each reply on a new connection, then closes
// it with a close_notify (so a body delimited by the end of the connection
// ends, as it does over a plain socket).
type tlsParser struct {
	url  string
	cfg  *tls.Config
	jobs sync.Map // request path → tlsJob
	seq  atomic.Int64
}

func newTLSParser(tb testing.TB) *tlsParser {
	srvCfg, cliCfg := h1test.Certs(tb)
	cliCfg.ClientSessionCache = tls.NewLRUClientSessionCache(1) // resumed handshakes: cheaper
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	tp := &tlsParser{url: "https://" + ln.Addr().String() + "/", cfg: cliCfg}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.SetDeadline(time.Now().Add(10 * time.Second)) // a client that stops reading cannot hold the server
			cc := &countedConn{Conn: c}
			tc := tls.Server(cc, srvCfg)
			req, err := http.ReadRequest(bufio.NewReader(tc))
			if err != nil {
				c.Close()
				continue
			}
			j, ok := tp.jobs.LoadAndDelete(req.URL.Path)
			if !ok {
				c.Close()
				continue
			}
			job := j.(tlsJob)
			for b := job.reply; len(b) > 0; {
				n := len(b)
				if job.split > 0 {
					n = min(n, job.split)
				}
				if _, err := tc.Write(b[:n]); err != nil {
					break
				}
				b = b[n:]
			}
			tc.Close()
			job.written <- cc.written.Load()
		}
	}()
	return tp
}

// parse reads reply as the lean client does over TLS. Its byte count is
// of TLS records, so consumed is not compared (-1).
func (tp *tlsParser) parse(tb testing.TB, reply []byte, method string, split int) parsed {
	job := tlsJob{reply: reply, split: split, written: make(chan int64, 1)}
	path := "/" + strconv.FormatInt(tp.seq.Add(1), 10)
	tp.jobs.Store(path, job)
	c := New(Config{Dialer: &net.Dialer{}, TLS: tp.cfg, HandshakeTimeout: 5 * time.Second})
	defer c.Close()
	var resp Response
	err := c.Do(&Request{Method: method, URL: []byte(tp.url[:len(tp.url)-1] + path), KeepBody: true, Timeout: 5 * time.Second}, &resp)
	var written int64
	select {
	case written = <-job.written:
	case <-time.After(5 * time.Second):
		tb.Fatal("the TLS server never finished its reply")
	}
	if err != nil {
		return parsed{err: err}
	}
	p := parsed{status: resp.Status, reason: string(resp.StatusText), header: parseHeader(resp.Header), body: resp.Body, consumed: -1}
	if len(c.conns) == 1 {
		// Once every byte the server wrote has reached the client, the
		// connection is reusable if nothing but the close_notify follows
		// the response, as net/http reuses it if nothing follows.
		cn := c.conns[0]
		peek := make([]byte, 1<<20)
		for end := time.Now().Add(5 * time.Second); arrived(cn, peek) < written; { // poll, bounded
			if time.Now().After(end) {
				tb.Fatalf("%d of the %d bytes the server wrote arrived", arrived(cn, peek), written)
			}
			time.Sleep(time.Millisecond)
		}
		cn.takeBuf() // a kept connection's buffer is back in the pool
		cn.wire.poll = true
		n, err := cn.tc.Read(cn.buf[cn.w:])
		cn.wire.poll = false
		p.reusable = n == 0 && (err == io.EOF || errors.Is(err, errWouldBlock))
	}
	return p
}

// arrived is the bytes of an https connection that reached the client:
// handed to crypto/tls, waiting in the wire, or in the socket (peeked into
// buf, which must hold them).
func arrived(cn *conn, buf []byte) int64 {
	n := cn.wire.read + int64(len(cn.wire.extra)-cn.wire.off)
	rc, err := cn.wire.Conn.(syscall.Conn).SyscallConn()
	if err != nil {
		return n
	}
	var m int
	rc.Read(func(fd uintptr) bool {
		m, _, _ = syscall.Recvfrom(int(fd), buf, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return true
	})
	return n + int64(max(m, 0))
}

// FuzzResponseTLS is FuzzResponse over TLS: the lean client reads each
// reply through crypto/tls and its one-record-per-read wire, in records
// of at most split bytes, and must agree with net/http's reading of the
// same bytes on status, header values, body and connection reuse.
func FuzzResponseTLS(f *testing.F) {
	for _, r := range seedReplies() {
		for _, head := range []bool{false, true} {
			f.Add([]byte(r), head, uint8(0))
		}
		f.Add([]byte(r), false, uint8(7))
	}
	tp := newTLSParser(f)
	f.Fuzz(func(t *testing.T, reply []byte, head bool, split uint8) {
		if d := compareParsesWith(tp.parse(t, reply, methodOf(head), int(split)), reply, head); d != "" {
			t.Fatalf("%s\nreply %q (HEAD %v, records of %d)", d, reply, head, split)
		}
	})
}

// TestSeedRepliesAgreeOverTLS runs FuzzResponseTLS's check on every seed
// reply in an ordinary test run.
func TestSeedRepliesAgreeOverTLS(t *testing.T) {
	tp := newTLSParser(t)
	for _, r := range seedReplies() {
		for _, head := range []bool{false, true} {
			for _, split := range []int{0, 7} {
				if d := compareParsesWith(tp.parse(t, []byte(r), methodOf(head), split), []byte(r), head); d != "" {
					t.Errorf("%s\nreply %q (HEAD %v, records of %d)", d, r, head, split)
				}
			}
		}
	}
}
