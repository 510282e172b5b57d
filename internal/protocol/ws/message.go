package ws

import (
	"net/http"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// message counts one message received: its gap, the first's time, its
// checks, its reply and until:. It reports whether the session is over,
// or the error of a reply that could not be sent.
func (s *session) message(now time.Time) (bool, error) {
	st := s.st.s
	f := &s.facts
	if f.MsgsReceived == 0 {
		f.FirstMsg = now.Sub(s.intended)
	} else {
		f.Gap(now.Sub(s.lastMsg))
	}
	f.MsgsReceived++
	s.lastMsg = now
	m := protocol.NewMessage(s.buf)
	for i := range st.Checks {
		if c := &st.Checks[i]; isMessageCheck(c) {
			s.vu.Check(c.ID, now, matches(&m, c))
		}
	}
	if st.Until != nil && matches(&m, st.Until) {
		s.matched = true
		from := s.begin
		if at := s.lastSent.Load(); at != 0 {
			from = time.Unix(0, at)
		}
		f.Reply = now.Sub(from)
		return true, nil
	}
	if err := s.answer(&m, now); err != nil {
		return false, err
	}
	return st.MaxMessages > 0 && f.MsgsReceived >= int64(st.MaxMessages), nil
}

// isMessageCheck reports whether a check reads messages (body_*, json,
// size) rather than the handshake's response (status, header).
func isMessageCheck(c *plan.Check) bool {
	return c.From == plan.FromSize || protocol.IsMessageCheck(c)
}

// matches judges a message check; size: is WebSocket's own (a binary
// message's length), the others are judged as every protocol's.
func matches(m *protocol.Message, c *plan.Check) bool {
	if c.From == plan.FromSize {
		return c.Compare(strconv.Itoa(len(m.Data)), true)
	}
	return m.Matches(c)
}

// checkHead judges the status and header checks on the handshake's response.
func (s *session) checkHead(resp *http.Response) {
	now := time.Now()
	for i := range s.st.s.Checks {
		if c := &s.st.s.Checks[i]; !isMessageCheck(c) {
			s.vu.Check(c.ID, now, protocol.HeadMatches(c, resp.StatusCode, resp.Header))
		}
	}
}
