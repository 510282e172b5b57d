// Package faultserver serves misbehaving HTTP targets on 127.0.0.1 for
// tests: one mode per way a target fails, each counting what it received,
// so a test can hold loadlens's numbers against the server's own.
package faultserver

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Options tunes a mode.
type Options struct {
	// Location is where RedirectAway sends its clients.
	Location string
	// ResetEvery makes ResetSome reset the connection of every n-th request
	// it reads (counted over all connections); 0 means 5, a share of 20 %.
	ResetEvery int
	// Idle is how long IdleClose keeps an idle connection; 0 means 50ms.
	Idle time.Duration
}

func (o Options) resetEvery() int {
	if o.ResetEvery > 0 {
		return o.ResetEvery
	}
	return 5
}

func (o Options) idle() time.Duration {
	if o.Idle > 0 {
		return o.Idle
	}
	return 50 * time.Millisecond
}

// Server is a fault server. Its counters may be read while it runs.
type Server struct {
	// URL is the base URL, http:// or https:// as the mode speaks.
	URL string

	mode     Mode
	opts     Options
	ln       net.Listener
	tls      *tls.Config
	conns    atomic.Int64
	requests atomic.Int64
	received atomic.Int64 // bytes read from the connections that speak HTTP
	answered atomic.Int64 // ResetSome: requests it chose an answer for
	resets   atomic.Int64 // ResetSome: requests answered with a reset
	done     chan struct{}
	wg       sync.WaitGroup
	mu       sync.Mutex
	open     map[net.Conn]struct{}
	closed   bool
	saw      map[string]int64 // Record: requests that carried each watched header
	cookies  map[string][]string
}

// Start serves mode on a new 127.0.0.1 port until the test ends.
func Start(tb testing.TB, mode Mode, opts Options) *Server {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{mode: mode, opts: opts, ln: ln, done: make(chan struct{}), open: map[net.Conn]struct{}{},
		saw: map[string]int64{}, cookies: map[string][]string{}}
	scheme := "http://"
	if mode.tls() {
		scheme = "https://"
		if mode == TLSBadCert {
			if s.tls, err = untrustedConfig(); err != nil {
				ln.Close()
				tb.Fatal(err)
			}
		}
	}
	s.URL = scheme + ln.Addr().String()
	s.wg.Add(1)
	go s.accept()
	tb.Cleanup(s.Close)
	return s
}

// Conns returns the connections the server accepted.
func (s *Server) Conns() int64 { return s.conns.Load() }

// Requests returns the request heads the server read.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Received returns the bytes the server read from its connections that
// speak HTTP (not the TLS modes'): the requests' bytes as they arrived.
func (s *Server) Received() int64 { return s.received.Load() }

// Resets returns the requests ResetSome read and answered with a reset.
func (s *Server) Resets() int64 { return s.resets.Load() }

// Saw returns how many requests carried the header (Record mode).
func (s *Server) Saw(header string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saw[http.CanonicalHeaderKey(header)]
}

// CookiesAt returns the Cookie headers requests to path carried, in order
// ("" for none) (Cookies mode).
func (s *Server) CookiesAt(path string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cookies[path]...)
}

// Close stops the server: the listener and every connection close, and
// Close returns when all of its goroutines have.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	s.ln.Close()
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.open[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		s.conns.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.forget(c)
			s.serve(c)
		}()
	}
}

func (s *Server) forget(c net.Conn) {
	c.Close()
	s.mu.Lock()
	delete(s.open, c)
	s.mu.Unlock()
}

// serve runs the mode on one connection.
func (s *Server) serve(c net.Conn) {
	switch s.mode {
	case TLSHang:
		drain(c)
		return
	case TLSBadCert:
		tc := tls.Server(c, s.tls)
		tc.SetDeadline(time.Now().Add(10 * time.Second))
		tc.Handshake() // fails: the client does not trust the certificate
		return
	case PlainOnTLSPort:
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		c.Read(make([]byte, 1024)) // a TLS ClientHello, read as if it were HTTP
		c.Write([]byte("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))
		return
	}
	br := bufio.NewReader(countingReader{c, &s.received})
	for kept := false; ; kept = true {
		// a keep-alive timeout: a new connection's first request has none (a
		// loaded client may write it tens of ms after its connect)
		if s.mode == IdleClose && kept && !awaitRequest(c, br, s.opts.idle()) {
			return
		}
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		s.requests.Add(1)
		if s.mode == StopReading {
			<-s.done // the client's writes fill the socket's buffers and stall
			return
		}
		drain(req.Body)
		if !s.answer(c, req) {
			return
		}
	}
}

// awaitRequest waits up to idle for the first byte of the next request on
// c, as a server's keep-alive timeout does (net/http's server peeks the
// same way), and reports whether one came in time. The idle is timed from
// when the kernel sent the last response, and judged by when the request
// arrived, not by when this goroutine ran: on a loaded host it ran 5-440
// ms late (under -race at load 15), the runtime may run the deadline's
// timer before its poller tells of bytes that came in time, and after the
// process stalled its poller may tell of a request sent long past the
// idle before the timer. A request that arrived within the idle is
// served; one that arrived later finds the connection closed as it would
// have been on time: a close (FIN), then a reset, the kernel's answer to
// a request that reaches a closed socket, which tells the client that the
// server never read it (a close with the request unread would reset it
// alone, as by a server that read it and reset the connection).
func awaitRequest(c net.Conn, br *bufio.Reader, idle time.Duration) bool {
	deadline := time.Now().Add(idle)
	if sentAgo, _, _, ok := socketTimes(c); ok {
		deadline = deadline.Add(-sentAgo)
	}
	c.SetReadDeadline(deadline)
	_, err := br.Peek(1)
	c.SetReadDeadline(time.Time{})
	if err == nil && time.Now().Before(deadline) {
		return true
	}
	_, receivedAgo, unread, ok := socketTimes(c)
	switch {
	case !ok: // cannot tell when it came: as the wait says
		return err == nil
	case err != nil && !unread: // nothing came
		return false
	case time.Now().Add(-receivedAgo).Before(deadline):
		return true
	}
	if tc, isTCP := c.(*net.TCPConn); isTCP {
		tc.CloseWrite()
		tc.SetLinger(0) // the caller's close resets, the request read or not
	}
	return false
}

// countingReader counts the bytes read through it into n.
type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// drain reads r until it ends.
func drain(r interface{ Read([]byte) (int, error) }) {
	buf := make([]byte, 4096)
	for {
		if _, err := r.Read(buf); err != nil {
			return
		}
	}
}

// write writes the lines of a response head, joined by CRLF, and a body.
func write(c net.Conn, body string, lines ...string) bool {
	_, err := c.Write([]byte(strings.Join(lines, "\r\n") + "\r\n\r\n" + body))
	return err == nil
}
