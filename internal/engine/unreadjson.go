package engine

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/loadlens/loadlens/internal/sample"
)

// jsonSample is how much of a body a notice about it quotes.
const jsonSample = 40

// checkNotes says, once per check, why a check failed where its figures
// say only that it did: a JSON check or extraction on a body the decoder
// could not read (a body nested 10,001 deep read as a plain failure, no
// reason), or a check whose rendered value could not be compared with.
type checkNotes struct {
	said []atomic.Bool // by check id
}

func newCheckNotes(checks int) *checkNotes { return &checkNotes{said: make([]atomic.Bool, checks)} }

// report notifies why check id's body did not decode, the first time.
func (u *checkNotes) report(e *Engine, id int32, body []byte, err error) {
	if u == nil || id < 0 || int(id) >= len(u.said) || u.said[id].Swap(true) {
		return
	}
	e.notify(checkWhere(e, id) + ": the response body is not JSON the decoder reads: " +
		jsonWhy(err) + "; the body starts " + strconv.Quote(bodyStart(body)) + ". The check fails on each such body")
}

// reportWhy notifies, the first time, why check id could not compare.
func (u *checkNotes) reportWhy(e *Engine, id int32, why error) {
	if u == nil || id < 0 || int(id) >= len(u.said) || u.said[id].Swap(true) {
		return
	}
	e.notify(checkWhere(e, id) + ": " + why.Error() + ". The check fails each time it cannot compare")
}

// checkWhere names check id and its endpoint for a notice.
func checkWhere(e *Engine, id int32) string {
	l := e.plan.Layout
	ck := l.Checks[id]
	where := ""
	if ep := int(ck.Endpoint); ep >= 0 && ep < len(l.Endpoints) {
		where = " (" + l.Endpoints[ep].Name + ")"
	}
	return "check " + strconv.Quote(ck.Name) + where
}

// jsonWhy words a decoding error: encoding/json's depth limit by its cause.
func jsonWhy(err error) string {
	if strings.Contains(err.Error(), "exceeded max depth") {
		return "it nests arrays or objects deeper than 10,000 levels, the JSON decoder's limit (Go's encoding/json)"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// bodyStart is the start of a body, cleaned for one line.
func bodyStart(body []byte) string {
	s := sample.CleanMessage(string(body[:min(len(body), jsonSample)]), len(body) > jsonSample)
	if s == "" {
		return "(empty)"
	}
	return s
}
