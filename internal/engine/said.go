package engine

import (
	"bytes"

	"github.com/loadlens/loadlens/internal/sample"
)

// errorSaid is a VU's last failure message built from an error response's
// body, so that a target failing the same way again costs a comparison of
// at most sample.MaxTargetMessage bytes, not a parse and an allocation.
type errorSaid struct {
	status int
	line   string // the status line the text starts with
	body   []byte // a copy of the body it was built from
	cut    bool
	text   string
}

// message returns a failed response's message: its status line, then what
// its body says ("500 Internal Server Error: HikariPool-1 - Connection is
// not available…"); the status line alone when the body says nothing.
func (e *errorSaid) message(status int, line string, body []byte, cut bool) string {
	if len(body) > sample.MaxTargetMessage {
		body, cut = body[:sample.MaxTargetMessage], true
	}
	if status == e.status && cut == e.cut && line == e.line && bytes.Equal(body, e.body) && e.text != "" {
		return e.text
	}
	text := line
	if said := sample.TargetMessage(body, cut); said != "" {
		text = line + ": " + said
	}
	e.status, e.line, e.cut, e.text = status, line, cut, text
	e.body = append(e.body[:0], body...)
	return text
}
