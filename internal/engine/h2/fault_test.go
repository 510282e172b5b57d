package h2

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// faultServer speaks raw HTTP/2 frames over h2c: for each request's
// HEADERS it calls answer with the connection's number (from 1) and the
// stream, which writes what the case wants.
type faultServer struct {
	addr     string
	conns    atomic.Int64
	requests atomic.Int64 // HEADERS frames read
	acks     atomic.Int64 // PING and SETTINGS acknowledgements read
	wg       sync.WaitGroup
}

// session is one connection of the fault server.
type session struct {
	fr   *http2.Framer
	nc   net.Conn
	n    int64 // the connection's number
	hb   bytes.Buffer
	enc  *hpack.Encoder
	srv  *faultServer
	stop bool
}

func startFault(t *testing.T, answer func(s *session, id uint32)) *faultServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fs := &faultServer{addr: ln.Addr().String()}
	t.Cleanup(func() { ln.Close(); fs.wg.Wait() })
	fs.wg.Add(1)
	go func() {
		defer fs.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			fs.wg.Add(1)
			go func() {
				defer fs.wg.Done()
				defer nc.Close()
				fs.serve(nc, answer)
			}()
		}
	}()
	return fs
}

func (fs *faultServer) serve(nc net.Conn, answer func(s *session, id uint32)) {
	nc.SetDeadline(time.Now().Add(10 * time.Second)) // a test's connection lasts no longer, whatever the client does
	br := bufio.NewReader(nc)
	if _, err := io.ReadFull(br, make([]byte, len(http2.ClientPreface))); err != nil {
		return
	}
	s := &session{fr: http2.NewFramer(nc, br), nc: nc, n: fs.conns.Add(1), srv: fs}
	s.enc = hpack.NewEncoder(&s.hb)
	s.fr.WriteSettings()
	for !s.stop {
		f, err := s.fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.HeadersFrame:
			fs.requests.Add(1)
			answer(s, f.StreamID)
		case *http2.PingFrame:
			if f.IsAck() {
				fs.acks.Add(1)
			}
		case *http2.SettingsFrame:
			if f.IsAck() {
				fs.acks.Add(1)
			}
		}
	}
}

// headers writes a response's HEADERS with the given fields after :status.
func (s *session) headers(id uint32, status string, end bool, fields ...string) {
	s.hb.Reset()
	s.enc.WriteField(hpack.HeaderField{Name: ":status", Value: status})
	for i := 0; i+1 < len(fields); i += 2 {
		s.enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
	}
	s.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: s.hb.Bytes(), EndHeaders: true, EndStream: end})
}

// ok answers 200 with a 2-byte body.
func (s *session) ok(id uint32) {
	s.headers(id, "200", false, "content-length", "2")
	s.fr.WriteData(id, true, []byte("ok"))
}

// waitAcks reads frames until n acknowledgements arrived.
func (s *session) waitAcks(n int64) {
	for s.srv.acks.Load() < n {
		f, err := s.fr.ReadFrame()
		if err != nil {
			return
		}
		if p, ok := f.(*http2.PingFrame); ok && p.IsAck() && string(p.Data[:]) == "loadlens" {
			s.srv.acks.Add(1)
		}
		if st, ok := f.(*http2.SettingsFrame); ok && st.IsAck() {
			s.srv.acks.Add(1)
		}
	}
}

func TestFaults(t *testing.T) {
	var timeoutErr interface{ Timeout() bool }
	cases := []struct {
		name     string
		answer   func(s *session, id uint32)
		requests int // the client's
		wantErr  func(error) bool
		conns    int64 // the server's connections
		seen     int64 // the server's HEADERS frames
		retried  int
	}{
		{name: "GOAWAY before the stream: sent again", answer: func(s *session, id uint32) {
			if s.n == 1 {
				s.fr.WriteGoAway(0, http2.ErrCodeNo, []byte("restart"))
				s.stop = true
				return
			}
			s.ok(id)
		}, requests: 1, conns: 2, seen: 2, retried: 1},
		{name: "REFUSED_STREAM: sent again", answer: func(s *session, id uint32) {
			if s.n == 1 {
				s.fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
				return
			}
			s.ok(id)
		}, requests: 1, conns: 2, seen: 2, retried: 1},
		{name: "always refused: fails after one retry", answer: func(s *session, id uint32) {
			s.fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
		}, requests: 1, conns: 2, seen: 2, retried: 1, wantErr: func(err error) bool { return errors.As(err, new(*StreamError)) }},
		{name: "RST_STREAM mid-response: a failure, not sent again", answer: func(s *session, id uint32) {
			s.headers(id, "200", false)
			s.fr.WriteRSTStream(id, http2.ErrCodeInternal)
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool {
			var se *StreamError
			return errors.As(err, &se) && se.Code == http2.ErrCodeInternal
		}},
		{name: "GOAWAY mid-run: this stream answered, the next on a new connection", answer: func(s *session, id uint32) {
			s.fr.WriteGoAway(id, http2.ErrCodeNo, nil)
			s.ok(id)
		}, requests: 3, conns: 3, seen: 3},
		{name: "GOAWAY then close mid-response", answer: func(s *session, id uint32) {
			s.fr.WriteGoAway(id, http2.ErrCodeInternal, []byte("shutting down"))
			s.headers(id, "200", false)
			s.stop = true
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool {
			return errors.Is(err, io.ErrUnexpectedEOF) && strings.Contains(err.Error(), "shutting down")
		}},
		{name: "a header field past the bound", answer: func(s *session, id uint32) {
			s.hb.Reset()
			s.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
			s.enc.WriteField(hpack.HeaderField{Name: "x-big", Value: strings.Repeat("b", 100<<10)})
			s.continued(id, s.hb.Bytes())
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool { return errors.Is(err, h1.ErrMalformed) }},
		{name: "a header list past the bound", answer: func(s *session, id uint32) {
			s.hb.Reset()
			s.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
			for i := range 100 {
				s.enc.WriteField(hpack.HeaderField{Name: "x-h" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Value: strings.Repeat("h", 1000)})
			}
			s.continued(id, s.hb.Bytes())
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool { return errors.Is(err, h1.ErrHeaderTooBig) }},
		{name: "endless CONTINUATION", answer: func(s *session, id uint32) {
			s.hb.Reset()
			s.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
			s.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: s.hb.Bytes()})
			s.hb.Reset()
			s.enc.WriteField(hpack.HeaderField{Name: "x-more", Value: strings.Repeat("c", 1000)})
			for range 100000 { // 100 MB at most: the client stops reading long before
				if s.fr.WriteContinuation(id, false, s.hb.Bytes()) != nil {
					return
				}
			}
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool { return errors.Is(err, h1.ErrHeaderTooBig) }},
		{name: "stalled stream: the request's timeout", answer: func(*session, uint32) {},
			requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool { return errors.As(err, &timeoutErr) && timeoutErr.Timeout() }},
		{name: "PING and SETTINGS answered before the response", answer: func(s *session, id uint32) {
			s.fr.WritePing(false, [8]byte{'l', 'o', 'a', 'd', 'l', 'e', 'n', 's'})
			s.fr.WriteSettings(http2.Setting{ID: http2.SettingMaxFrameSize, Val: 1 << 20}, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20})
			s.waitAcks(s.srv.acks.Load() + 2)
			s.ok(id)
		}, requests: 2, conns: 1, seen: 2},
		{name: "close before the response", answer: func(s *session, id uint32) {
			s.stop = true
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool {
			// a close with the request's frames unread sends RST, not FIN: 1 in 40 here
			return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
		}},
		{name: "body shorter than content-length", answer: func(s *session, id uint32) {
			s.headers(id, "200", false, "content-length", "10")
			s.fr.WriteData(id, true, []byte("short"))
		}, requests: 1, conns: 1, seen: 1, wantErr: func(err error) bool { return errors.Is(err, h1.ErrMalformed) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := startFault(t, tc.answer)
			c := New(Config{})
			defer c.Close()
			for i := range tc.requests {
				var resp h1.Response
				err := c.Do(&h1.Request{Method: "GET", URL: []byte("http://" + fs.addr + "/"), Timeout: 300 * time.Millisecond}, &resp)
				switch {
				case tc.wantErr == nil && err != nil:
					t.Fatalf("request %d: %v", i, err)
				case tc.wantErr == nil && (resp.Status != 200 || resp.Received == 0):
					t.Fatalf("request %d: status %d, %d bytes received", i, resp.Status, resp.Received)
				case tc.wantErr != nil && !tc.wantErr(err):
					t.Fatalf("request %d: error %v (%T), not the one wanted", i, err, err)
				case tc.wantErr != nil && resp.Received > 1<<20:
					t.Fatalf("request %d: %d bytes received before failing: memory and time are not bounded", i, resp.Received)
				}
			}
			c.Close()
			if fs.conns.Load() != tc.conns || fs.requests.Load() != tc.seen || c.retried != tc.retried {
				t.Errorf("server: %d connections, %d requests; client retried %d; want %d, %d, %d",
					fs.conns.Load(), fs.requests.Load(), c.retried, tc.conns, tc.seen, tc.retried)
			}
		})
	}
}

// continued writes a header block in a HEADERS frame and CONTINUATION frames.
func (s *session) continued(id uint32, block []byte) {
	s.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block[:16384]})
	for block = block[16384:]; len(block) > 0; {
		part := block[:min(len(block), 16384)]
		block = block[len(part):]
		if s.fr.WriteContinuation(id, len(block) == 0, part) != nil {
			return
		}
	}
}
