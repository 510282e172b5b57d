package h1

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"time"
)

// fakeConn answers whatever is written with a canned byte stream, handed
// out in reads of at most split bytes (0: as much as asked), then io.EOF.
type fakeConn struct {
	data  []byte
	split int
}

func (f *fakeConn) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, io.EOF
	}
	if f.split > 0 && len(p) > f.split {
		p = p[:f.split]
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func (f *fakeConn) Write(p []byte) (int, error)        { return len(p), nil }
func (f *fakeConn) Close() error                       { return nil }
func (f *fakeConn) LocalAddr() net.Addr                { return &net.TCPAddr{} }
func (f *fakeConn) RemoteAddr() net.Addr               { return &net.TCPAddr{} }
func (f *fakeConn) SetDeadline(t time.Time) error      { return nil }
func (f *fakeConn) SetReadDeadline(t time.Time) error  { return nil }
func (f *fakeConn) SetWriteDeadline(t time.Time) error { return nil }

// parsed is what a client made of a reply, in comparable form.
type parsed struct {
	status   int
	reason   string
	header   http.Header // names canonical as net/textproto makes them
	body     []byte
	reusable bool  // the connection could carry the next request
	consumed int64 // bytes of the stream that belonged to the response
	interim  int   // 1xx responses skipped (net/http only)
	err      error
}

// leanParse runs the lean client against reply over a fake connection.
func leanParse(reply []byte, method string, split int) parsed {
	fc := &fakeConn{data: reply, split: split}
	c := NewClient(&net.Dialer{})
	c.dial = func(context.Context, string, string) (net.Conn, error) { return fc, nil }
	var resp Response
	err := c.Do(&Request{Method: method, URL: []byte("http://fuzz.test/"), KeepBody: true}, &resp)
	if err != nil {
		return parsed{err: err}
	}
	p := parsed{status: resp.Status, reason: string(resp.StatusText), header: parseHeader(resp.Header), body: resp.Body, consumed: resp.Received}
	// What is still unread on the fake connection is what the idle check
	// (a peek on the socket) would find before the next request.
	p.reusable = len(c.conns) == 1 && len(fc.data) == 0
	return p
}

// parseHeader turns the lean client's header lines into an http.Header,
// names canonical as net/textproto makes them.
func parseHeader(b []byte) http.Header {
	h := http.Header{}
	for it := (headerLines{rest: b}); ; {
		n, v, ok := it.next()
		if !ok {
			return h
		}
		k := textproto.CanonicalMIMEHeaderKey(string(n))
		h[k] = append(h[k], string(v))
	}
}

// netParse reads reply as net/http's Transport does: ReadResponse, skipping
// interim 1xx responses (but not 101), then the whole body.
func netParse(reply []byte, method string) parsed {
	src := bytes.NewReader(reply)
	br := bufio.NewReaderSize(src, 4096) // the Transport's read buffer size, which bounds chunk lines and trailers
	req, _ := http.NewRequest(method, "http://fuzz.test/", nil)
	var p parsed
	for {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return parsed{err: err, interim: p.interim}
		}
		if resp.StatusCode/100 == 1 && resp.StatusCode != 101 {
			p.interim++
			continue
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return parsed{err: err, interim: p.interim}
		}
		left := br.Buffered() + src.Len()
		_, reason, _ := strings.Cut(resp.Status, " ")
		p.status, p.reason, p.header, p.body = resp.StatusCode, reason, resp.Header, body
		// net/http would reuse the connection (after 101 it hands it over
		// instead; the lean client, which never asks to switch, closes it).
		p.reusable = !resp.Close && left == 0 && resp.StatusCode != 101
		p.consumed = int64(len(reply) - left)
		return p
	}
}

func methodOf(head bool) string {
	if head {
		return "HEAD"
	}
	return "GET"
}

// compareParses reports how the lean client's reading of reply differs
// from net/http's, or "" when they agree (both rejecting counts as agreeing).
func compareParses(reply []byte, head bool, split uint8) string {
	return compareParsesWith(leanParse(reply, methodOf(head), int(split)), reply, head)
}

// compareParsesWith compares the lean client's reading of reply, lean,
// with net/http's. A consumed of -1 is not compared.
func compareParsesWith(lean parsed, reply []byte, head bool) string {
	std := netParse(reply, methodOf(head))
	switch {
	case lean.err != nil && std.err != nil:
		return ""
	case errors.Is(lean.err, ErrHeaderTooBig):
		return "" // deliberate: a head is bounded at 64 KiB here, at 10 MB by net/http
	case errors.Is(lean.err, ErrMalformed) && std.err == nil && std.status < 100:
		return "" // deliberate: "+20" or "099" is not a status code (see parseStatusLine)
	case errors.Is(lean.err, ErrMalformed) && std.interim > maxInterim:
		return "" // deliberate: at most maxInterim 1xx responses (net/http bounds their bytes)
	case lean.err != nil || std.err != nil:
		return "lean: " + errString(lean.err) + "; net/http: " + errString(std.err)
	}
	var diffs []string
	if lean.status != std.status || lean.reason != std.reason {
		diffs = append(diffs, "status")
	}
	if !bytes.Equal(lean.body, std.body) {
		diffs = append(diffs, "body")
	}
	if lean.reusable != std.reusable {
		diffs = append(diffs, "reuse")
	}
	if lean.consumed != -1 && lean.consumed != std.consumed {
		diffs = append(diffs, "bytes consumed")
	}
	if !maps.EqualFunc(comparable(lean.header, std.header), comparable(std.header, lean.header), equalStrings) {
		diffs = append(diffs, "header")
	}
	if len(diffs) == 0 {
		return ""
	}
	return strings.Join(diffs, ", ") + " differ"
}

// comparable drops the fields net/http rewrites while reading (deliberate
// differences: the lean client keeps header fields as received):
// Transfer-Encoding moves to Response.TransferEncoding, Content-Length is
// deduplicated or dropped beside chunked, "Connection: close" is removed,
// and Pragma: no-cache adds a Cache-Control. Framing is compared through
// the body instead.
func comparable(h, other http.Header) http.Header {
	h = h.Clone()
	if h == nil {
		h = http.Header{}
	}
	delete(h, "Transfer-Encoding")
	delete(h, "Content-Length")
	delete(h, "Connection")
	if _, ok := other["Cache-Control"]; !ok {
		if p := h["Pragma"]; len(p) > 0 && p[0] == "no-cache" {
			delete(h, "Cache-Control")
		}
	}
	return h
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func errString(err error) string {
	if err == nil {
		return "accepted"
	}
	return err.Error()
}

// FuzzResponse compares the lean client's reading of an arbitrary reply to
// a GET or a HEAD with net/http's: the same status, header values, body,
// bytes consumed and connection reuse, or both reject it.
func FuzzResponse(f *testing.F) {
	for _, r := range seedReplies() {
		for _, head := range []bool{false, true} {
			f.Add([]byte(r), head, uint8(0))
		}
		f.Add([]byte(r), false, uint8(1))
	}
	f.Fuzz(func(t *testing.T, reply []byte, head bool, split uint8) {
		if d := compareParses(reply, head, split); d != "" {
			t.Fatalf("%s\nreply %q (HEAD %v, reads of %d)", d, reply, head, split)
		}
	})
}

// TestSeedRepliesAgree runs the differential check on every seed reply in
// an ordinary test run, so the agreement holds without -fuzz.
func TestSeedRepliesAgree(t *testing.T) {
	for _, r := range seedReplies() {
		for _, head := range []bool{false, true} {
			for _, split := range []uint8{0, 1, 7} {
				if d := compareParses([]byte(r), head, split); d != "" {
					t.Errorf("%s\nreply %q (HEAD %v, reads of %d)", d, r, head, split)
				}
			}
		}
	}
}
