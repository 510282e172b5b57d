package ws

import (
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// answer sends the reply of the first reply: whose on: the message
// matches, once its extract: has set the VU's variables from the message.
func (s *session) answer(m *protocol.Message, now time.Time) error {
	for i := range s.st.s.Replies {
		r := &s.st.s.Replies[i]
		if !matches(m, &r.On) {
			continue
		}
		s.extract(r.Extract, m, now)
		return s.write(&r.Send, &s.reply)
	}
	return nil
}

// extract sets variables from a message, as a request's extract: does
// from a body (protocol.SetExtracted), under the lock the scheduled sender
// renders with.
func (s *session) extract(ex []plan.Extract, m *protocol.Message, now time.Time) {
	if len(ex) == 0 {
		return
	}
	s.varsMu.Lock()
	defer s.varsMu.Unlock()
	for i := range ex {
		val, ok := m.Extracted(&ex[i])
		protocol.SetExtracted(s.vu, &ex[i], val, ok, now)
	}
}
