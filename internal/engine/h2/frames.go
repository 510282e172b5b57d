package h2

import (
	"net/http"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// maxWindow is the largest flow-control window HTTP/2 allows.
const maxWindow = 1<<31 - 1

// control handles a frame that is not the request's stream's: the
// connection's (SETTINGS, PING, WINDOW_UPDATE, GOAWAY) and what arrives
// for a stream that ended. Answers are queued; the read loop writes them.
func (c *Client) control(cn *conn, f http2.Frame) error {
	switch f := f.(type) {
	case *http2.SettingsFrame:
		if f.IsAck() {
			return nil
		}
		if err := f.ForeachSetting(func(s http2.Setting) error { return c.apply(cn, s) }); err != nil {
			return err
		}
		if err := cn.fr.WriteSettingsAck(); err != nil {
			return err
		}
		return cn.flush() // at once, not with the next request: servers may time a SETTINGS ack out
	case *http2.PingFrame:
		if !f.IsAck() {
			return cn.fr.WritePing(true, f.Data)
		}
	case *http2.WindowUpdateFrame:
		if f.StreamID == 0 {
			if cn.sendWin += int64(f.Increment); cn.sendWin > maxWindow {
				cn.broken = true
				return malformed("the connection's send window past 2^31-1")
			}
		}
	case *http2.GoAwayFrame:
		return c.goAway(cn, f)
	case *http2.DataFrame: // a stream that ended: its bytes still count against the connection's window
		return c.consumed(cn, nil, int64(f.Length))
	case *http2.PushPromiseFrame:
		cn.broken = true
		return malformed("PUSH_PROMISE, which the client's SETTINGS disabled")
	}
	return nil
}

// apply applies one of the server's settings.
func (c *Client) apply(cn *conn, s http2.Setting) error {
	if err := s.Valid(); err != nil {
		cn.broken = true
		return malformed("SETTINGS: %v", err)
	}
	switch s.ID {
	case http2.SettingInitialWindowSize:
		delta := int64(s.Val) - cn.peerWindow
		cn.peerWindow = int64(s.Val)
		if st := &c.st; st.id != 0 && !st.done {
			st.sendWin += delta // RFC 9113 §6.9.2: open streams' windows move by the change
		}
	case http2.SettingMaxFrameSize:
		cn.peerFrame = int(s.Val)
	case http2.SettingHeaderTableSize:
		cn.enc.SetMaxDynamicTableSizeLimit(s.Val)
		cn.same.ok = false // the table may lose entries the same block names
	}
	return nil
}

// goAway notes a GOAWAY: no new stream on the connection, and the request
// in flight fails, to go out again, if its stream is above the last one
// the server says it processes.
func (c *Client) goAway(cn *conn, f *http2.GoAwayFrame) error {
	cn.goAway = true
	debug := f.DebugData()
	ga := &GoAwayError{LastStreamID: f.LastStreamID, Code: f.ErrCode, Debug: string(debug[:min(len(debug), 64)])}
	cn.away = ga
	if st := &c.st; st.id != 0 && !st.done && f.LastStreamID < st.id {
		return ga
	}
	return nil
}

// consumed gives back n bytes of DATA read, with WINDOW_UPDATE frames once
// half a window is unacknowledged; st is nil for a stream that ended.
func (c *Client) consumed(cn *conn, st *stream, n int64) error {
	cn.recvUnacked += n
	if cn.recvUnacked >= connWindow/2 {
		if err := cn.fr.WriteWindowUpdate(0, uint32(cn.recvUnacked)); err != nil {
			return err
		}
		cn.recvUnacked = 0
	}
	if st == nil || st.done {
		return nil
	}
	st.recvUnacked += n
	if st.recvUnacked >= streamWindow/2 {
		if err := cn.fr.WriteWindowUpdate(st.id, uint32(st.recvUnacked)); err != nil {
			return err
		}
		st.recvUnacked = 0
	}
	return nil
}

// onStream handles a frame of the request's stream.
func (c *Client) onStream(cn *conn, f http2.Frame, req *h1.Request, resp *h1.Response) error {
	st := &c.st
	switch f := f.(type) {
	case *http2.MetaHeadersFrame:
		if st.final {
			if !f.StreamEnded() {
				cn.broken = true
				return malformed("a second HEADERS frame (trailers) without END_STREAM")
			}
			if f.Truncated {
				return errHeaderTooBig
			}
			st.done, c.trlSeen = true, true
			c.trl = appendFields(c.trl, f.RegularFields())
			return c.complete(resp)
		}
		return c.onHeaders(f, req, resp)
	case *http2.DataFrame:
		if !st.final {
			cn.broken = true
			return malformed("DATA before the response's HEADERS")
		}
		st.got += int64(len(f.Data()))
		c.keep(f.Data(), resp)
		st.done = f.StreamEnded()
		if err := c.consumed(cn, st, int64(f.Length)); err != nil {
			return err
		}
		if st.done {
			return c.complete(resp)
		}
	case *http2.RSTStreamFrame:
		st.done = true
		return &StreamError{Code: f.ErrCode}
	case *http2.WindowUpdateFrame:
		if st.sendWin += int64(f.Increment); st.sendWin > maxWindow {
			cn.broken = true
			return malformed("the stream's send window past 2^31-1")
		}
	case *http2.PushPromiseFrame:
		cn.broken = true
		return malformed("PUSH_PROMISE, which the client's SETTINGS disabled")
	}
	return nil
}

// keep keeps what the request asked of a DATA frame's bytes.
func (c *Client) keep(data []byte, resp *h1.Response) {
	st := &c.st
	if !st.keep || len(data) == 0 {
		return
	}
	room := len(data)
	if st.maxBody > 0 {
		room = int(min(int64(room), st.maxBody-int64(len(c.body))))
	}
	if room < len(data) {
		resp.Truncated = true
	}
	if room > 0 {
		c.body = append(c.body, data[:room]...)
	}
}

// complete checks a whole response's length against its content-length,
// as net/http's transport does.
func (c *Client) complete(resp *h1.Response) error {
	st := &c.st
	if st.length < 0 || st.head || resp.Status == http.StatusNoContent || resp.Status == http.StatusNotModified {
		return nil
	}
	if st.got != st.length {
		return malformed("content-length %d, %d bytes of DATA", st.length, st.got)
	}
	return nil
}

// appendFields appends fields as "name: value\r\n" lines.
func appendFields(b []byte, fields []hpack.HeaderField) []byte {
	for _, hf := range fields {
		b = append(b, hf.Name...)
		b = append(b, ": "...)
		b = append(b, hf.Value...)
		b = append(b, "\r\n"...)
	}
	return b
}
