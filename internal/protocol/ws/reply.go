package ws

import (
	"encoding/json"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
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
		s.extract(r.Extract, m.Data, now)
		return s.write(&r.Send, &s.reply)
	}
	return nil
}

// extract sets variables from a message, as a request's extract: does
// from a body: a miss without a default sets "" and fails its check.
func (s *session) extract(ex []plan.Extract, data []byte, now time.Time) {
	if len(ex) == 0 {
		return
	}
	var doc any
	parsed, docOK := false, false
	s.varsMu.Lock()
	defer s.varsMu.Unlock()
	vars := s.vu.Vars().Vars
	for i := range ex {
		e := &ex[i]
		var val string
		var ok bool
		if e.From == plan.FromJSON {
			if !parsed {
				docOK, parsed = json.Unmarshal(data, &doc) == nil, true
			}
			val, ok = lookup(e.Path, doc, docOK)
		} else {
			val, ok = submatch(e, data)
		}
		if !ok && e.Default != nil {
			val, ok = *e.Default, true
		}
		vars[e.Var] = val
		if e.Default == nil {
			s.vu.Check(e.Check, now, ok)
		}
	}
}

// lookup returns the value at path in a parsed message, as text.
func lookup(path jsonpath.Path, doc any, parsed bool) (string, bool) {
	if !parsed {
		return "", false
	}
	v, ok := path.Lookup(doc)
	if !ok {
		return "", false
	}
	return jsonpath.Format(v), true
}

// submatch returns a regex extraction's capture group 1 when it has one,
// else its match.
func submatch(e *plan.Extract, data []byte) (string, bool) {
	m := e.Regex.FindSubmatch(data)
	switch {
	case m == nil:
		return "", false
	case len(m) > 1:
		return string(m[1]), true
	}
	return string(m[0]), true
}
