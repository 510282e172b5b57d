package faultserver

import (
	"net"
	"net/http"
	"strconv"
	"time"
)

// Mode is one way a target misbehaves.
type Mode int

// The faults, each as issue 9 found them.
const (
	Hang                     Mode = iota // reads each request and never answers
	Slowloris                            // answers one header byte every 50ms, never finishing
	HugeBody                             // a 200 with a 100 MB body
	ResetMidResponse                     // the head and half the body, then a TCP reset
	CloseWithoutResponse                 // reads the request and closes the connection
	Informational                        // 100 Continue and 103 Early Hints before the 200
	StrayBytes                           // a 200, then bytes no request asked for
	BadContentLength                     // Content-Length: 12x
	ConflictingContentLength             // two different Content-Lengths
	RedirectLoop                         // a 302 to the same URL
	RedirectAway                         // a 302 to Options.Location, another host
	Record                               // a 200 that counts requests with Authorization, Proxy-Authorization, Cookie or X-Custom
	Cookies                              // cookies with Domain, Path, Expires, Max-Age and Secure (see answerCookies)
	TLSBadCert                           // TLS with a certificate nobody trusts
	TLSHang                              // accepts the connection, never answers the TLS handshake
	PlainOnTLSPort                       // plain HTTP where the test says https://
	ResetSome                            // reads each request whole; resets the connection for every Options.ResetEvery-th, else a 200
	IdleClose                            // a 200 on a kept-alive connection, closed once idle for Options.Idle after a response, judged by when the next request arrived (a keep-alive timeout)
	StopReading                          // reads a request's head, then neither its body nor anything else (a stalled upload)
)

// HugeBodySize is the body HugeBody sends.
const HugeBodySize = 100 << 20

func (m Mode) tls() bool { return m == TLSBadCert || m == TLSHang || m == PlainOnTLSPort }

const ok = "HTTP/1.1 200 OK"

// answer answers one request; false closes the connection.
func (s *Server) answer(c net.Conn, req *http.Request) bool {
	switch s.mode {
	case Hang:
		drain(c) // until the client gives up or the server closes
		return false
	case Slowloris:
		c.Write([]byte(ok + "\r\nX-Slow: "))
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return false
			case <-t.C:
				if _, err := c.Write([]byte("a")); err != nil {
					return false
				}
			}
		}
	case HugeBody:
		if !write(c, "", ok, "Content-Length: "+strconv.Itoa(HugeBodySize)) {
			return false
		}
		chunk := make([]byte, 64<<10)
		for left := HugeBodySize; left > 0; left -= len(chunk) {
			if _, err := c.Write(chunk[:min(len(chunk), left)]); err != nil {
				return false
			}
		}
		return true
	case ResetMidResponse:
		write(c, string(make([]byte, 500)), ok, "Content-Length: 1000")
		if tc, isTCP := c.(*net.TCPConn); isTCP {
			tc.SetLinger(0) // close with a reset
		}
		return false
	case CloseWithoutResponse:
		return false
	case ResetSome:
		if s.answered.Add(1)%int64(s.opts.resetEvery()) == 0 {
			s.resets.Add(1)
			if tc, isTCP := c.(*net.TCPConn); isTCP {
				tc.SetLinger(0) // the request was read: the reset answers it
			}
			return false
		}
		return write(c, "ok", ok, "Content-Length: 2")
	case IdleClose:
		return write(c, "ok", ok, "Content-Length: 2")
	case Informational:
		return write(c, "ok", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints", "Link: </style.css>; rel=preload\r\n\r\n"+ok, "Content-Length: 2")
	case StrayBytes:
		return write(c, "okSTRAY BYTES\r\n\r\n", ok, "Content-Length: 2")
	case BadContentLength:
		write(c, "hello world!", ok, "Content-Length: 12x")
		return false
	case ConflictingContentLength:
		write(c, "hello world!", ok, "Content-Length: 5", "Content-Length: 12")
		return false
	case RedirectLoop:
		return write(c, "", "HTTP/1.1 302 Found", "Location: "+req.URL.RequestURI(), "Content-Length: 0")
	case RedirectAway:
		return write(c, "", "HTTP/1.1 302 Found", "Location: "+s.opts.Location, "Content-Length: 0")
	case Record:
		s.mu.Lock()
		for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "X-Custom"} {
			if req.Header.Get(h) != "" {
				s.saw[h]++
			}
		}
		s.mu.Unlock()
		return write(c, "ok", ok, "Content-Length: 2")
	case Cookies:
		return s.answerCookies(c, req)
	}
	return false
}

// answerCookies plays a site that sets cookies of every scope at /set and
// takes two of them back at /expire; every request's Cookie header is
// recorded under its path. What a jar that follows RFC 6265 sends:
//
//	/set         sets keep (Path=/), scoped (Path=/private), brief (Max-Age=600) and
//	             secure (Secure: loopback is a secure origin, as in browsers), and three
//	             it must never send back: old (Expires in the past), gone (Max-Age=0)
//	             and elsewhere (the Domain of another site)
//	/public/…    keep=1; brief=1; secure=1
//	/private/…   scoped=1; keep=1; brief=1; secure=1 (longer paths first)
//	/expire      removes brief (Max-Age=-1) and keep (Expires in the past)
func (s *Server) answerCookies(c net.Conn, req *http.Request) bool {
	s.mu.Lock()
	s.cookies[req.URL.Path] = append(s.cookies[req.URL.Path], req.Header.Get("Cookie"))
	s.mu.Unlock()
	past := "Expires=Thu, 01 Jan 1970 00:00:01 GMT"
	switch req.URL.Path {
	case "/set":
		return write(c, "ok", ok,
			"Set-Cookie: keep=1; Path=/",
			"Set-Cookie: scoped=1; Path=/private",
			"Set-Cookie: brief=1; Path=/; Max-Age=600",
			"Set-Cookie: old=1; Path=/; "+past,
			"Set-Cookie: gone=1; Path=/; Max-Age=0",
			"Set-Cookie: elsewhere=1; Path=/; Domain=example.com",
			"Set-Cookie: secure=1; Path=/; Secure",
			"Content-Length: 2")
	case "/expire":
		return write(c, "ok", ok,
			"Set-Cookie: brief=; Path=/; Max-Age=-1",
			"Set-Cookie: keep=; Path=/; "+past,
			"Content-Length: 2")
	}
	return write(c, "ok", ok, "Content-Length: 2")
}
