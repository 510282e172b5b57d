package sse

import (
	"net/http"
	"time"

	"github.com/loadlens/loadlens/internal/protocol"
)

// checkHead judges the status and header checks on a response head.
func (s *session) checkHead(resp *http.Response) {
	now := time.Now()
	for i := range s.st.s.Checks {
		if c := &s.st.s.Checks[i]; !protocol.IsMessageCheck(c) {
			s.vu.Check(c.ID, now, protocol.HeadMatches(c, resp.StatusCode, resp.Header))
		}
	}
}

// checkEvent judges the body and json checks on one event's data.
func (s *session) checkEvent(data []byte, now time.Time) {
	m := protocol.NewMessage(data)
	for i := range s.st.s.Checks {
		if c := &s.st.s.Checks[i]; protocol.IsMessageCheck(c) {
			s.vu.Check(c.ID, now, m.Matches(c))
		}
	}
}
