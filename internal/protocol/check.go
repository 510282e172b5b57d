package protocol

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/loadlens/loadlens/internal/plan"
)

// Message is one message's data as checks read it: its text, and its
// JSON document parsed once for every json check.
type Message struct {
	Data   []byte
	doc    any
	parsed bool
	docErr error
}

// NewMessage returns data ready for checks; it is parsed as JSON only
// when a json check reads it.
func NewMessage(data []byte) Message { return Message{Data: data} }

func (m *Message) json() (any, error) {
	if !m.parsed {
		m.docErr = json.Unmarshal(m.Data, &m.doc)
		m.parsed = true
	}
	return m.doc, m.docErr
}

// Matches judges a body_contains, body_matches or json check on a
// message, as the HTTP path judges them on a body; other checks are false.
func (m *Message) Matches(c *plan.Check) bool {
	switch c.From {
	case plan.FromBody:
		return c.MatchBody(m.Data)
	case plan.FromJSON:
		return c.MatchJSON(m.json())
	}
	return false
}

// IsMessageCheck reports whether a check reads messages (body_*, json)
// rather than the response head (status, header).
func IsMessageCheck(c *plan.Check) bool { return c.From == plan.FromBody || c.From == plan.FromJSON }

// HeadMatches judges a status or header check on a response head (an
// SSE response, a WebSocket handshake); other checks are false.
func HeadMatches(c *plan.Check, status int, h http.Header) bool {
	switch c.From {
	case plan.FromStatus:
		return c.Compare(strconv.Itoa(status), true)
	case plan.FromHeader:
		vals := h.Values(c.Header)
		if c.Op == plan.OpExists {
			return (len(vals) > 0) == c.ExistsWanted()
		}
		return len(vals) > 0 && c.Compare(vals[0], true)
	}
	return false
}
