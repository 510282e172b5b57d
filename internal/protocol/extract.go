package protocol

import (
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
)

// Extracted returns what an extract: finds in a message, as a request's
// does in a body: the value at its JSON path, its regex's capture group 1
// (else the match), or the whole message when it has neither.
func (m *Message) Extracted(e *plan.Extract) (string, bool) {
	switch {
	case e.From == plan.FromJSON:
		doc, err := m.json()
		if err != nil {
			return "", false
		}
		v, ok := e.Path.Lookup(doc)
		if !ok {
			return "", false
		}
		return jsonpath.Format(v), true
	case e.Regex == nil:
		return string(m.Data), true
	}
	return Submatch(e, m.Data)
}

// Submatch returns a regex extraction's capture group 1 when it has one,
// else its match.
func Submatch(e *plan.Extract, data []byte) (string, bool) {
	m := e.Regex.FindSubmatch(data)
	switch {
	case m == nil:
		return "", false
	case len(m) > 1:
		return string(m[1]), true
	}
	return string(m[0]), true
}

// SetExtracted sets an extraction's variable to what it found, or to its
// default when it found nothing; a miss without a default sets "" and
// fails the extraction's check, as a request's extract: does.
func SetExtracted(vu VU, e *plan.Extract, val string, ok bool, at time.Time) {
	if !ok && e.Default != nil {
		val, ok = *e.Default, true
	}
	vu.Vars().Vars[e.Var] = val
	if e.Default == nil {
		vu.Check(e.Check, at, ok)
	}
}
