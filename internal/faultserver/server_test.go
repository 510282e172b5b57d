package faultserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestModesMisbehaveAsDocumented checks each HTTP mode with net/http as the
// client, and that the server counts what it received.
func TestModesMisbehaveAsDocumented(t *testing.T) {
	cases := []struct {
		mode   Mode
		header http.Header
		check  func(t *testing.T, s *Server, resp *http.Response, err error, informational []int)
	}{
		{Hang, nil, func(t *testing.T, s *Server, _ *http.Response, err error, _ []int) {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err %v, want the client's timeout", err)
			}
		}},
		{Informational, nil, func(t *testing.T, s *Server, resp *http.Response, err error, inf []int) {
			if err != nil || resp.StatusCode != 200 || len(inf) != 2 || inf[0] != 100 || inf[1] != 103 {
				t.Errorf("status %v, informational %v, err %v", resp, inf, err)
			}
		}},
		{BadContentLength, nil, func(t *testing.T, s *Server, _ *http.Response, err error, _ []int) {
			if err == nil || !strings.Contains(err.Error(), "Content-Length") {
				t.Errorf("err %v, want net/http to reject the length", err)
			}
		}},
		{ConflictingContentLength, nil, func(t *testing.T, s *Server, _ *http.Response, err error, _ []int) {
			if err == nil || !strings.Contains(err.Error(), "Content-Length") {
				t.Errorf("err %v, want net/http to reject the lengths", err)
			}
		}},
		{RedirectLoop, nil, func(t *testing.T, s *Server, resp *http.Response, err error, _ []int) {
			if err != nil || resp.StatusCode != 302 || resp.Header.Get("Location") != "/p?q=1" {
				t.Errorf("response %v, err %v", resp, err)
			}
		}},
		{Record, http.Header{"Authorization": {"x"}, "X-Custom": {"1"}}, func(t *testing.T, s *Server, resp *http.Response, err error, _ []int) {
			if err != nil || s.Saw("authorization") != 1 || s.Saw("X-Custom") != 1 || s.Saw("Cookie") != 0 {
				t.Errorf("saw Authorization %d, X-Custom %d, Cookie %d (err %v)", s.Saw("Authorization"), s.Saw("X-Custom"), s.Saw("Cookie"), err)
			}
		}},
		{HugeBody, nil, func(t *testing.T, s *Server, resp *http.Response, err error, _ []int) {
			if err != nil {
				t.Fatal(err)
			}
			if n, err := io.Copy(io.Discard, resp.Body); n != HugeBodySize || err != nil {
				t.Errorf("body of %d bytes (%v)", n, err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(strings.TrimSpace(modeName(c.mode)), func(t *testing.T) {
			s := Start(t, c.mode, Options{})
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			if c.mode == HugeBody {
				ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
			}
			defer cancel()
			var inf []int
			ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{Got1xxResponse: func(code int, _ textproto.MIMEHeader) error {
				inf = append(inf, code)
				return nil
			}})
			req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/p?q=1", nil)
			for k, v := range c.header {
				req.Header[k] = v
			}
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			resp, err := (&http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
			c.check(t, s, resp, err, inf)
			if resp != nil {
				resp.Body.Close()
			}
			if s.Requests() != 1 || s.Conns() != 1 {
				t.Errorf("the server counted %d requests on %d connections, want 1 and 1", s.Requests(), s.Conns())
			}
		})
	}
}

func modeName(m Mode) string {
	return [...]string{"hang", "slowloris", "huge body", "reset", "close", "informational", "stray", "bad length",
		"two lengths", "loop", "away", "record", "cookies", "bad cert", "tls hang", "plain on tls", "reset some", "idle close"}[m]
}

// TestResetSomeResetsRequestsItRead: every second request on a kept-alive
// connection is read whole, counted, and answered with a reset.
func TestResetSomeResetsRequestsItRead(t *testing.T) {
	s := Start(t, ResetSome, Options{ResetEvery: 2})
	c, br := dial(t, s)
	if resp, err := roundTrip(c, br); err != nil || resp.StatusCode != 200 {
		t.Fatalf("first request: %v %v", resp, err)
	}
	if _, err := roundTrip(c, br); !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("second request: %v, want a reset", err)
	}
	if s.Requests() != 2 || s.Resets() != 1 {
		t.Errorf("the server read %d requests and reset %d, want 2 and 1", s.Requests(), s.Resets())
	}
}

// TestIdleCloseClosesIdleConnections: a connection carries requests sent
// back to back, and the server closes it once it is idle.
func TestIdleCloseClosesIdleConnections(t *testing.T) {
	s := Start(t, IdleClose, Options{Idle: 20 * time.Millisecond})
	c, br := dial(t, s)
	for i := range 2 {
		if resp, err := roundTrip(c, br); err != nil || resp.StatusCode != 200 {
			t.Fatalf("request %d: %v %v", i, resp, err)
		}
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := br.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read %d bytes, %v; want the server's close", n, err)
	}
	if s.Requests() != 2 || s.Conns() != 1 {
		t.Errorf("the server read %d requests on %d connections, want 2 on 1", s.Requests(), s.Conns())
	}
}

// dial opens a connection to s.
func dial(t *testing.T, s *Server) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

// roundTrip sends a GET on c and reads its response.
func roundTrip(c net.Conn, br *bufio.Reader) (*http.Response, error) {
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(br, nil)
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
	}
	return resp, err
}
